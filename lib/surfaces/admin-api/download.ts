/**
 * The admin API's downloads (the people's and the audit log's exports): lines streamed as the use case yields them,
 * so a large export is never held in memory whole, and a caller that hangs up stops the reading (the generator's
 * `return`, which closes its database cursor).
 */
export function downloadOfLines(lines: AsyncGenerator<string>, { contentType, filename }: { contentType: string; filename: string }): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': `${contentType}; charset=utf-8`, 'content-disposition': `attachment; filename="${filename}"` },
  });
}
