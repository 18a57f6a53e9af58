/**
 * The QR code of an otpauth:// URI, drawn on the server as SVG and sent as an
 * image (the CSP allows data: images): it shows without JavaScript. UI only.
 */
import QRCode from 'qrcode';

/** `alt`: what the image is, in the page's language. */
export async function TotpQr({ uri, alt }: { uri: string; alt: string }) {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return (
    // biome-ignore lint/performance/noImgElement: a data: URL of an SVG drawn here; next/image adds nothing
    <img
      src={`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`}
      alt={alt}
      width={192}
      height={192}
      // White in both schemes: scanners expect dark modules on a light ground.
      className="rounded-lg border border-slate-200 bg-on-fill"
    />
  );
}
