import { connect, type AddressInfo, type Socket } from 'node:net'
import type { Server } from 'node:http'
import { gzipSync } from 'node:zlib'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { createHttpServer } from '#core/malformed_requests'
import env from '#start/env'
import { rawCall } from '#tests/support/fuzz'
import { inGlobalTransaction } from '#tests/support/database'

const ONE_MB = 1024 * 1024

/** Everything a raw socket receives until the server closes it, and when it closed. */
function collect(socket: Socket) {
  const started = performance.now()
  return new Promise<{ text: string; closedAfterMs: number }>((resolve) => {
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', () => {})
    socket.on('close', () =>
      resolve({
        text: Buffer.concat(chunks).toString('utf8'),
        closedAfterMs: performance.now() - started,
      })
    )
  })
}

/** The first answer on a raw socket, once its JSON body has arrived whole. */
function firstAnswer(socket: Socket) {
  return new Promise<string>((resolve, reject) => {
    let text = ''
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8')
      try {
        bodyOf(text)
        resolve(text)
      } catch {}
    })
    socket.on('error', reject)
  })
}

function bodyOf(text: string) {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: { code: string } }
}

test.group('Attacks | oversized bodies', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('a body over 1 MB is 413 request_entity_too_large on {$self}')
    .with([
      '/auth/nonce',
      '/auth/verify',
      '/providers',
      '/facilitator/verify',
      '/facilitator/settle',
      '/ingest/acme-data/btc-price',
    ])
    .run(async ({ assert }, path) => {
      const answer = await rawCall('POST', path, {
        body: JSON.stringify({ wallet_address: 'x'.repeat(ONE_MB + 10) }),
      })
      assert.equal(answer.status, 413)
      assert.equal(answer.json.error.code, 'request_entity_too_large')
    })

  test('a chunked body over 1 MB, without a Content-Length, is 413', async ({ assert }) => {
    const socket = connect(Number(env.get('PORT')), env.get('HOST'))
    const answer = collect(socket)
    socket.write(
      'POST /auth/nonce HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n'
    )
    const chunk = 'x'.repeat(64 * 1024)
    for (let sent = 0; sent <= ONE_MB && !socket.destroyed; sent += chunk.length) {
      socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
    }
    if (!socket.destroyed) socket.end('0\r\n\r\n')

    const { text } = await answer
    assert.match(text, /^HTTP\/1.1 413 /)
    assert.equal(bodyOf(text).error.code, 'request_entity_too_large')
  })

  test('a gzip bomb (20 KB that inflates past 1 MB) is 413, not inflated whole', async ({
    assert,
  }) => {
    const bomb = gzipSync(Buffer.from(`{"a":"${'0'.repeat(20 * ONE_MB)}"}`))
    assert.isBelow(bomb.length, 64 * 1024)

    const response = await fetch(`http://${env.get('HOST')}:${env.get('PORT')}/auth/nonce`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: bomb,
    })

    assert.equal(response.status, 413)
    assert.equal(((await response.json()) as any).error.code, 'request_entity_too_large')
  })

  test('a Content-Length of {$self} bytes is refused before any byte of the body (found here)')
    .with([4 * 1024 ** 3, 10 * 1024 ** 3, 2 ** 31])
    .run(async ({ assert }, length) => {
      const socket = connect(Number(env.get('PORT')), env.get('HOST'))
      const answer = firstAnswer(socket)
      socket.write(
        'POST /providers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          `Content-Length: ${length}\r\n\r\n`
      )

      const text = await answer
      socket.destroy()
      assert.match(text, /^HTTP\/1.1 413 /)
      assert.equal(bodyOf(text).error.code, 'request_entity_too_large')
    })
})

/**
 * A slow-loris client, against a second server built exactly as the real one
 * (createHttpServer) with short limits.
 */
test.group('Attacks | slow requests', (group) => {
  let server: Server
  let port: number

  group.each.setup(async () => {
    const adonis = await app.container.make('server')
    server = createHttpServer((request, response) => adonis.handle(request, response), {
      headersTimeoutMs: 400,
      requestTimeoutMs: 600,
      checkIntervalMs: 50,
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
    return async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  /** Sends `text` one byte every `everyMs` until the server closes the connection. */
  function trickle(socket: Socket, text: string, everyMs: number) {
    let at = 0
    const timer = setInterval(() => {
      if (socket.destroyed || at >= text.length) return clearInterval(timer)
      socket.write(text[at++])
    }, everyMs)
    socket.on('close', () => clearInterval(timer))
  }

  test('a body sent byte by byte is cut off with 408 request_timeout', async ({ assert }) => {
    const socket = connect(port, '127.0.0.1')
    const answer = collect(socket)
    const body = JSON.stringify({ wallet_address: 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5' })
    socket.write(
      'POST /auth/nonce HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\n\r\n`
    )
    trickle(socket, body, 40)

    const { text, closedAfterMs } = await answer

    assert.match(text, /^HTTP\/1.1 408 /)
    assert.equal(bodyOf(text).error.code, 'request_timeout')
    assert.isBelow(closedAfterMs, 1_000)
  })

  test('headers sent byte by byte are cut off with 408 request_timeout', async ({ assert }) => {
    const socket = connect(port, '127.0.0.1')
    const answer = collect(socket)
    trickle(socket, `GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(100)}\r\n\r\n`, 20)

    const { text, closedAfterMs } = await answer

    assert.match(text, /^HTTP\/1.1 408 /)
    assert.equal(bodyOf(text).error.code, 'request_timeout')
    assert.isBelow(closedAfterMs, 1_000)
  })

  test('a request that arrives in time is answered as usual', async ({ assert }) => {
    const response = await fetch(`http://127.0.0.1:${port}/health`)
    assert.equal(response.status, 200)
  })
})
