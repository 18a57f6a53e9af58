/**
 * The operator's logo and name (lib/config/brand.ts), as the sign-in card and the
 * portal's header show them. The built-in gate mark is drawn inline in the accent
 * colour, so it follows the brand and the colour scheme; an operator's logo is an
 * image whose alt text is the name (the name beside it is then hidden from screen
 * readers, which would read it twice). UI only: the brand is configuration.
 */
import type { Brand } from '@/lib/config/brand';
import { GATE_MARK_PATH } from '@/lib/config/gate-mark';

export function GateMark({ className = 'size-7' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={`shrink-0 ${className}`}>
      <path fill="currentColor" fillRule="evenodd" d={GATE_MARK_PATH} />
    </svg>
  );
}

/** `size`: the card's (the larger) or the header's. */
export function BrandLockup({ brand, size = 'card' }: { brand: Brand; size?: 'card' | 'header' }) {
  const height = size === 'card' ? 'h-8' : 'h-7';
  return (
    <span className="inline-flex items-center gap-2.5 text-accent-text">
      {brand.logo ? (
        // biome-ignore lint/performance/noImgElement: the operator's logo, from anywhere BRAND_LOGO_URL says; next/image would proxy it
        <img src={brand.logo.src} alt={brand.name} className={`${height} w-auto max-w-40 object-contain`} />
      ) : (
        <GateMark className={size === 'card' ? 'size-8' : 'size-7'} />
      )}
      <span aria-hidden={brand.logo ? true : undefined} className={`font-semibold tracking-tight ${size === 'card' ? 'text-base' : 'text-sm'} text-slate-900`}>
        {brand.name}
      </span>
    </span>
  );
}
