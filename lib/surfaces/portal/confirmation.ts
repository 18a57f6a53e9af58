/**
 * Every portal action that revokes, disables or ends something asks for a tick
 * first, in the form itself (components/portal/confirm.tsx): it works without
 * JavaScript, unlike a confirm() dialog, and the server checks it, so a form
 * posted without it does nothing. The rotate and delete forms of a client
 * check the same box in their use cases (clients.ts).
 */

/** A confirmed action's form state: it redirects when done, so only a missing tick comes back. */
export type Confirmation = { status: 'idle' } | { status: 'unconfirmed'; message: string };

/** Whether the form's "I understand" box (`name="confirm"`) was ticked. */
export function isConfirmed(form: FormData): boolean {
  return form.get('confirm') === 'on';
}

/**
 * Runs `act` (which redirects or throws when done) only once the box is ticked; otherwise says `refusal`,
 * what to tick, in the page's language (the area's catalog: "Tick the box to confirm: …").
 */
export async function confirmOrSay(form: FormData, refusal: string, act: () => Promise<unknown>): Promise<Confirmation> {
  if (!isConfirmed(form)) return { status: 'unconfirmed', message: refusal };
  await act();
  return { status: 'idle' };
}
