'use client';
/**
 * A relying party's logo (logo_uri, https only), or its initial: when it has none, and when the logo
 * fails to load (a moved file, a host that is down), so a person never sees a broken image with clipped
 * alt text. With JavaScript the failed image is removed (its error event, or found already failed when
 * the page hydrates after it); without, the initial is drawn behind the image (noscript), and shows
 * wherever the image does not. UI only.
 */
import { useEffect, useRef, useState } from 'react';

const tile = 'size-12 shrink-0 rounded-lg';

export function ClientLogo({ name, logoUri, alt }: { name: string; logoUri?: string; alt: string }) {
  const image = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    // Failed before React was listening: complete, with nothing decoded.
    const img = image.current;
    if (img?.complete && img.naturalWidth === 0) setFailed(true);
  }, []);
  const initial = (
    <span
      aria-hidden="true"
      data-initial
      className={`${tile} flex items-center justify-center bg-slate-100 text-xl font-semibold text-slate-700 ${logoUri && !failed ? 'absolute inset-0' : ''}`}
    >
      {[...name.trim()][0]?.toUpperCase() ?? '?'}
    </span>
  );
  if (!logoUri || failed) return initial;
  return (
    <span className={`relative ${tile}`}>
      <noscript>{initial}</noscript>
      {/* biome-ignore lint/performance/noImgElement: the relying party's logo from its registration; next/image would fetch it server-side */}
      <img
        ref={image}
        src={logoUri}
        alt={alt}
        width={48}
        height={48}
        referrerPolicy="no-referrer"
        onError={() => setFailed(true)}
        className={`relative ${tile} border border-slate-200 bg-white object-contain`}
      />
    </span>
  );
}
