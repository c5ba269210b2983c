/**
 * An answer's body, read until it ends or passes `maxBytes`: a declared
 * length above the cap fails before anything is read, and reading stops at
 * the chunk that passes it (leaving the loop cancels the stream, so the rest
 * is never downloaded). The one body reader of OutboundClient and requestJson.
 */
export async function readCappedBody(
  chunks: AsyncIterable<Uint8Array>,
  limits: { maxBytes: number; declaredLength?: string | null; tooLarge: () => Error }
): Promise<Buffer> {
  if (Number(limits.declaredLength) > limits.maxBytes) throw limits.tooLarge()
  const read: Uint8Array[] = []
  let size = 0
  for await (const chunk of chunks) {
    size += chunk.byteLength
    if (size > limits.maxBytes) throw limits.tooLarge()
    read.push(chunk)
  }
  return Buffer.concat(read)
}
