/**
 * The state of a form on /admin/access or a person's groups and roles (components/admin/access-form.tsx):
 * done redirects to the page with its notice, so only a refusal comes back, with the use case's message.
 */
export type AccessFormState = { status: 'idle' } | { status: 'error'; message: string } | { status: 'done'; notice: string };
