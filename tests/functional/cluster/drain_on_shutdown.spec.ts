import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { test } from '@japa/runner'
import { DEVNET_ACCOUNTS } from '@tollbooth/devnet'
import { UpstreamSimulator } from '@tollbooth/upstream-simulator'
import type { PaymentRequired } from '#payments/x402'
import { pointAppAtDevnet } from '#tests/support/chain'
import { startInstance } from '#tests/support/cluster'
import { emptyMarketplaceLater } from '#tests/support/database'
import { transfer } from '#tests/support/devnet'
import { paymentHeader } from '#tests/support/paid_calls'
import { httpDrain } from '../../../bin/http_drain.js'

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: any
}

/** A GET through `agent` (keep-alive: the connection outlives the answer unless the server ends it). */
function get(url: string, agent: Agent, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    request(url, { agent, headers }, (response) => {
      let text = ''
      response.on('data', (chunk) => (text += chunk))
      response.once('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: JSON.parse(text) })
      )
    })
      .once('error', reject)
      .end()
  })
}

/** Resolves once a TCP connection to `port` is refused; every 100 ms until then. */
async function refused(port: number) {
  for (;;) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (!accepted) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Resolves once the node holds `txid` (pending or mined); every 100 ms until then. */
async function broadcast(nodeUrl: string, txid: string) {
  for (;;) {
    const lookup = await fetch(`${nodeUrl}/extended/v1/tx/0x${txid}`)
    if (lookup.status === 200) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The two ways an operator stops `npm start` (docs/operations.md#processes). */
const STOPS = [
  { way: 'SIGTERM to the primary', ownGroup: false },
  { way: 'Ctrl-C: SIGINT to every process of its group', ownGroup: true },
]

/**
 * The operator stops `npm start` while buyers' paid calls wait for their
 * block: the calls still get their answer, the instance takes no new
 * connection meanwhile, and every process exits 0. The devnet mines only
 * when told, so the calls stay in flight for as long as the test needs.
 */
test.group('npm start stopped by the operator', (group) => {
  // The paid calls commit what they write: emptied afterwards, the built-in feeds' counters restored.
  group.each.setup(() => emptyMarketplaceLater())

  test('{way}: finishes the paid calls in flight, refuses new connections meanwhile, exits 0')
    .with(STOPS)
    .run(async ({ assert, cleanup }, stop) => {
      const chain = await pointAppAtDevnet({ blockTimeMs: null })
      const simulator = await new UpstreamSimulator().listen()
      const instance = await startInstance(
        2,
        { STACKS_API_URL: chain.devnet.url, UPSTREAM_SIMULATOR_URL: simulator.url },
        { ownGroup: stop.ownGroup }
      )
      const agent = new Agent({ keepAlive: true })
      cleanup(async () => {
        agent.destroy()
        await instance.stop()
        await simulator.close()
        await chain.cleanup()
      })
      const feed = `${instance.url}/feeds/whale-alerts`
      const quote = await get(feed, agent)
      const required = quote.body as PaymentRequired
      const { payTo, amount } = required.accepts[0]

      // Two buyers' calls on two connections, the second once the first waits for its block: the
      // cluster hands consecutive connections to its workers in turn, so each worker has one.
      const calls = []
      for (const buyer of DEVNET_ACCOUNTS.slice(1, 3)) {
        const tx = await transfer({
          senderKey: buyer.privateKey,
          recipient: payTo,
          amount: BigInt(amount),
          nonce: 0n,
        })
        calls.push(
          get(feed, new Agent({ keepAlive: true }), {
            'payment-signature': paymentHeader(required, tx.serialize()),
          })
        )
        await broadcast(chain.devnet.url, tx.txid())
      }

      if (stop.ownGroup) instance.interrupt()
      else instance.child.kill('SIGTERM')
      await refused(Number(new URL(instance.url).port))
      await chain.devnet.mine()
      const answers = await Promise.all(calls)
      const exitCode = await instance.stop()

      for (const answer of answers) {
        assert.equal(answer.status, 200, JSON.stringify(answer.body))
        assert.equal(answer.body.price, Number(amount))
        assert.isNotEmpty(answer.body.data)
        // The worker ends the connection after the answer: a client cannot keep a stopping worker alive.
        assert.equal(answer.headers.connection, 'close')
      }
      assert.equal(exitCode, 0)
      assert.notMatch(instance.output(), /stopped \((code [1-9]|signal)/)
    })
    .timeout(90_000)
})

test.group('The HTTP drain', () => {
  test('closes the connections still open once the grace is over', async ({ assert, cleanup }) => {
    const server = createServer(() => {})
    cleanup(() => server.closeAllConnections())
    const graceOver: number[] = []
    const drain = httpDrain(server, 50, (open) => graceOver.push(open))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo

    // A request the server never answers.
    const arrived = new Promise((resolve) => server.once('request', resolve))
    const cut = new Promise<Error>((resolve) =>
      request(`http://127.0.0.1:${port}/`).once('error', resolve).end()
    )
    await arrived
    const closed = new Promise((resolve) => server.close(resolve))
    drain.begin()

    const error = await cut
    assert.match(error.message, /socket hang up/)
    await closed
    assert.deepEqual(graceOver, [1])
  })
})
