import type { Server, ServerResponse } from 'node:http'

/**
 * Lets an HTTP server stop without cutting the requests it is answering
 * (docs/operations.md#processes). Node's `server.close()` stops accepting
 * connections, closes the idle keep-alive ones and waits for the others, but
 * a connection whose request is in flight stays keep-alive once answered,
 * and a client that keeps sending requests on it keeps the server open for
 * ever. Once `begin()` is called, every answer not yet sent says
 * `Connection: close`, so each connection closes after the request it
 * carries; after `graceMs` the connections still open are cut.
 */
export function httpDrain(server: Server, graceMs: number, onGraceOver: (open: number) => void) {
  const unanswered = new Set<ServerResponse>()
  let draining = false

  // Before the app's handler: it may answer synchronously.
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (draining) return closeAfter(response)
    unanswered.add(response)
    response.once('close', () => unanswered.delete(response))
  })

  return {
    /** Call as the server starts closing. */
    begin() {
      if (draining) return
      draining = true
      for (const response of unanswered) closeAfter(response)
      const timer = setTimeout(() => {
        onGraceOver(unanswered.size)
        server.closeAllConnections()
      }, graceMs)
      // The grace bounds the drain; it does not keep a drained process alive.
      timer.unref()
      server.once('close', () => clearTimeout(timer))
    },
  }
}

/** The answer's connection closes once it is sent (Node ends the socket after a `Connection: close` answer). */
function closeAfter(response: ServerResponse) {
  if (!response.headersSent) response.setHeader('connection', 'close')
}
