'use server';
// The unlock link's one button: public (the link is the proof), throttled per source by the use case. Next.js refuses
// server-action posts whose Origin is not this host (CSRF).
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { serverContext } from '@/lib/context';
import { unlockWithLink, type UnlockOutcome } from '@/lib/mail-links/account-unlock';
import { requestContext } from '@/lib/platform/request-context';
import { DEVICE_COOKIE } from '@/lib/sign-in/devices';

export async function unlockAction(token: string, _state: UnlockOutcome, _form: FormData): Promise<UnlockOutcome> {
  const requestHeaders = await headers();
  const { outcome, deviceCookie } = await unlockWithLink(
    serverContext(),
    typeof token === 'string' ? token : '',
    requestContext(requestHeaders),
    requestHeaders.get('cookie'),
  );
  if (deviceCookie) {
    // The use case words the whole cookie; Next's cookie store wants its value and attributes apart.
    const [pair, ...attributes] = deviceCookie.split('; ');
    const maxAge = Number(attributes.find((a) => a.startsWith('Max-Age='))?.slice('Max-Age='.length));
    (await cookies()).set(DEVICE_COOKIE, pair.slice(DEVICE_COOKIE.length + 1), {
      path: '/',
      maxAge,
      httpOnly: true,
      sameSite: 'lax',
      secure: attributes.includes('Secure'),
    });
    // Shown anew with the cookie it set (a render in this request would not see it yet): the page says it worked.
    redirect(`/unlock/${encodeURIComponent(token)}`);
  }
  return outcome;
}
