/**
 * Hidden fields of every interaction form: the client and redirect_uri of the authorization
 * request (nothing secret: both are in its URL). Should the request expire before the form is
 * sent, the expired page uses them, once checked against the registration, to link back to the
 * application (lib/sign-in/interactions.ts expiredView). UI only.
 */
export function RequestFields({ client }: { client: { id: string; redirectUri?: string } }) {
  return (
    <>
      <input type="hidden" name="client_id" value={client.id} />
      {client.redirectUri ? <input type="hidden" name="redirect_uri" value={client.redirectUri} /> : null}
    </>
  );
}
