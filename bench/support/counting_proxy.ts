import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * An HTTP pass-through to the chain node that counts the requests it
 * forwards: the service under test is pointed at it (STACKS_API_URL), so its
 * chain API requests are counted from outside its process.
 */
export async function startCountingProxy(target: string) {
  const upstream = new URL(target)
  const counter = { requests: 0, byPath: new Map<string, number>() }
  const server = createServer((incoming, outgoing) => {
    counter.requests++
    // One entry per endpoint: txids and addresses left out.
    const path = new URL(incoming.url ?? '/', target).pathname
      .replaceAll(/\bS[MNPT][\dA-Z]{20,}\b/g, ':address')
      .replaceAll(/\b0x[\da-f]{64}\b/g, ':txid')
    counter.byPath.set(path, (counter.byPath.get(path) ?? 0) + 1)
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      }
    )
    forwarded.on('error', () => outgoing.destroy())
    incoming.pipe(forwarded)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    counter,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
