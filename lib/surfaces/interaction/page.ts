/**
 * The interaction page's reading of its interaction, for one render: the language (../locale.ts) and the
 * page (viewInteraction) share one lookup per request (React's cache; outside a render, none is kept).
 */
import 'server-only';
import { cache } from 'react';
import { serverContext } from '../../context.ts';
import { findInteraction } from '../../oidc/interaction.ts';
import { type ExpiredHint, type InteractionView, viewInteraction } from '../../sign-in/interactions.ts';

const findForPage = cache((uid: string, cookie: string | null) => findInteraction(serverContext(), uid, cookie));

/** The authorization request's `ui_locales` (OIDC Core §3.1.2.1), for the language of its pages. */
export async function interactionUiLocales(uid: string, cookie: string | null): Promise<string | undefined> {
  const uiLocales = (await findForPage(uid, cookie))?.params.ui_locales;
  return typeof uiLocales === 'string' ? uiLocales : undefined;
}

/** What /interaction/:uid shows. */
export async function interactionPage(uid: string, cookie: string | null, hint: ExpiredHint = {}): Promise<InteractionView> {
  return viewInteraction(serverContext(), uid, await findForPage(uid, cookie), hint, cookie);
}
