import { createServer } from 'node:net'

/**
 * Whether something already listens on `port`, on any local address: the
 * check the dev server's port picker makes before it silently moves to a
 * random port.
 */
export function isPortInUse(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(true)
      else reject(error)
    })
    probe.listen({ port }, () => probe.close(() => resolve(false)))
  })
}
