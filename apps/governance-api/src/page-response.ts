import type { BoundedPage } from '@dcg/governance';

const encoder = new TextEncoder();
/** Items written to the stream per pull: enough to keep the socket busy, few enough to yield. */
const ITEMS_PER_PULL = 16;

/**
 * A JSON response written as a stream, item by item: `{"data":[…],…rest}`. The items are JSON
 * texts already (serialised once, when the page was measured), so no string of the whole body is
 * ever built, whatever the page size.
 *
 * @example
 * return streamJsonList(page.texts, { meta: page.meta });
 */
export function streamJsonList(
  texts: readonly string[],
  rest: Record<string, unknown> = {},
  status = 200,
): Response {
  let index = 0;
  const tail = Object.keys(rest).length === 0 ? '' : `,${JSON.stringify(rest).slice(1, -1)}`;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"data":['));
    },
    pull(controller) {
      const end = Math.min(texts.length, index + ITEMS_PER_PULL);
      for (; index < end; index++) {
        controller.enqueue(encoder.encode(index === 0 ? texts[index]! : `,${texts[index]!}`));
      }
      if (index >= texts.length) {
        controller.enqueue(encoder.encode(`]${tail}}`));
        controller.close();
      }
    },
  });
  return new Response(stream, {
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
  });
}

/**
 * A byte-bounded page as a streamed `{ data, meta: { pagination } }` response.
 *
 * @example
 * return pageResponse(await collectBoundedPage(read, { limit, offset, maxBytes }));
 */
export function pageResponse<T>(page: BoundedPage<T>): Response {
  return streamJsonList(page.texts, { meta: page.meta });
}
