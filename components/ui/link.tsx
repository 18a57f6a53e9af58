// The one link between pages: next/link without prefetching. Next prefetches every link in the viewport, and the
// portal's pages are all dynamic (each asks the database who is signed in and what to list), so every page view
// had the server render the area's whole navigation again, and a list every row's page: seven renders behind each
// admin page, measured in the browser suite's server log, none of which the admin asked for. A click costs one
// render instead; the links still navigate on the client.
import NextLink from 'next/link';
import type { ComponentProps } from 'react';

export function Link(props: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={false} {...props} />;
}
