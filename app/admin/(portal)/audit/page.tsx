// /admin/audit: not built yet (issue 3).
import type { Metadata } from 'next';
import { Card, PageHeader } from '@/components/admin/ui';
import { requireAdmin } from '@/lib/services/portal/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Audit log' };

export default async function AuditPage() {
  await requireAdmin('/admin/audit');
  return (
    <>
      <PageHeader title="Audit log" description="Sign-ins, consents, revocations, client and user changes: who, what, on whom, when." />
      <Card title="Coming soon">
        <p className="text-sm text-slate-600">The audit log is not recorded yet.</p>
      </Card>
    </>
  );
}
