/**
 * The built-in logo, a gatehouse: two crenellated towers with arrow slits and
 * an arched gate between them, in a 32×32 box, filled (even-odd: the gate and
 * the slits are holes). Drawn inline in the accent colour where the operator
 * set no logo (components/ui/brand.tsx, lib/oidc/html.ts); public/logo.svg and
 * public/favicon.svg are the same path (gate-mark.test.ts checks it).
 */
export const GATE_MARK_PATH =
  'M4 28V6h2.5v2.5h2V6H11v6h10V6h2.5v2.5h2V6H28v22Z' + 'M12.5 28v-7a3.5 3.5 0 0 1 7 0v7Z' + 'M6.75 14h1.5v4.5h-1.5Z' + 'M23.75 14h1.5v4.5h-1.5Z';

/** The mark as an inline SVG element for HTML written by hand; `fill` defaults to the surrounding text colour. */
export const gateMarkSvg = (size: number, fill = 'currentColor') =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="${size}" height="${size}" aria-hidden="true" focusable="false"><path fill="${fill}" fill-rule="evenodd" d="${GATE_MARK_PATH}"/></svg>`;
