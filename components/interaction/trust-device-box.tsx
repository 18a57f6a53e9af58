/**
 * "Don't ask for a second step on this device" (lib/sign-in/trusted-devices.ts): ticked, a right second
 * step (a code or a passkey) makes this browser a trusted device of the account for a while. A plain
 * checkbox named `trust_device`: the code forms post it without JavaScript. `id` lets the passkey form,
 * shown above the code form on the same page, send the state of this one box (one box per page). UI only.
 */
export function TrustDeviceBox({ label, id }: { label?: string; id?: string }) {
  if (!label) return null;
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <input type="checkbox" id={id} name="trust_device" className="size-4 accent-accent" />
      {label}
    </label>
  );
}
