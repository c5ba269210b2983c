import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import env from '#start/env'
import { SENDER } from '#tests/support/devnet'
import { registerPushAndUploadFeeds } from '#tests/support/hosted_mirror'
import { usePaidCallStack } from '#tests/support/paid_calls'

const BASE_URL = `http://${env.get('HOST')}:${env.get('PORT')}`
const NODE = app.makePath('node_modules/.bin/node')
const MAIN = app.makePath('packages/agent/src/mcp/main.ts')
const TOKEN = 'operator-token-of-the-mcp-test'

/**
 * tollbooth-mcp (packages/agent/src/mcp) spawned as an operator would run it,
 * driven by the MCP SDK's own client, paying from the devnet's funded sender.
 */
test.group('The MCP server', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  function serverEnv(caps: { maxPerCall: string; budget: string }) {
    return {
      PATH: process.env.PATH ?? '',
      TOLLBOOTH_URL: BASE_URL,
      TOLLBOOTH_NETWORK: 'devnet',
      TOLLBOOTH_STACKS_API: stack.devnet.url,
      TOLLBOOTH_PRIVATE_KEY: SENDER.privateKey,
      TOLLBOOTH_MAX_PER_CALL: caps.maxPerCall,
      TOLLBOOTH_BUDGET: caps.budget,
      TOLLBOOTH_MCP_TOKEN: TOKEN,
    }
  }

  async function connect(transport: StdioClientTransport | StreamableHTTPClientTransport) {
    const client = new Client({ name: 'mcp-test', version: '1.0.0' })
    await client.connect(transport)
    return client
  }

  async function call(client: Client, name: string, args: Record<string, unknown>) {
    return (await client.callTool({ name, arguments: args })) as CallToolResult
  }

  function text(result: CallToolResult) {
    const first = result.content[0]
    return first.type === 'text' ? first.text : ''
  }

  /** Transfers of the sender the chain took (mined or in its mempool). */
  async function broadcastCount() {
    const response = await fetch(`${stack.devnet.url}/extended/v1/address/${SENDER.address}/nonces`)
    return ((await response.json()) as { possible_next_nonce: number }).possible_next_nonce
  }

  async function paymentsOfSender() {
    return db.from('payments').where('payer', SENDER.address)
  }

  /** `tollbooth-mcp --http --port 0`, and the URL it says it listens on. */
  async function startHttp(caps: { maxPerCall: string; budget: string }, cleanup: Function) {
    const child = spawn(NODE, [MAIN, '--http', '--port', '0'], { env: serverEnv(caps) })
    cleanup(() => child.kill())
    let stderr = ''
    child.stderr.setEncoding('utf8')
    for await (const chunk of child.stderr) {
      stderr += chunk
      const listening = /listening on (\S+)/.exec(stderr)
      if (listening) return new URL(listening[1])
    }
    throw new Error(`tollbooth-mcp exited: ${stderr}`)
  }

  test('over stdio: lists its three tools, describes a feed and buys it', async ({
    client: http,
    assert,
    cleanup,
  }) => {
    const { token, uploadPath } = await registerPushAndUploadFeeds(http)
    const upload = await http.post(uploadPath).bearerToken(token).json({ rate: 1.25 })
    upload.assertStatus(200)
    const client = await connect(
      new StdioClientTransport({
        command: NODE,
        args: [MAIN],
        env: serverEnv({ maxPerCall: '0.01', budget: '1' }),
      })
    )
    cleanup(() => client.close())

    const { tools } = await client.listTools()
    const found = JSON.parse(text(await call(client, 'search_feeds', { query: 'whale' })))
    const described = JSON.parse(
      text(await call(client, 'describe_feed', { feed: 'whale-alerts' }))
    )
    const provider = JSON.parse(
      text(await call(client, 'describe_feed', { feed: 'mirror-co/rates' }))
    )
    const bought = await call(client, 'buy_feed', { feed: 'whale-alerts' })

    assert.sameMembers(
      tools.map((tool) => tool.name),
      ['search_feeds', 'describe_feed', 'buy_feed']
    )
    assert.isTrue(
      found.feeds.some(
        (feed: { feed: string; price_stx: string }) =>
          feed.feed.endsWith('/feeds/whale-alerts') && feed.price_stx === '0.005'
      )
    )
    assert.containsSubset(described, { price_stx: '0.005', per_call_cap_stx: '0.01' })
    assert.isString(described.last_updated)
    assert.containsSubset(described.stats, { total_queries: 0 })
    assert.isString(provider.freshness.last_updated)
    assert.isObject(provider.stats)
    assert.equal(described.input.method, 'GET')
    assert.equal(described.input.query_params.type, 'object')
    assert.isObject(described.output.schema)
    assert.isObject(described.output.example)
    assert.notOk(bought.isError, text(bought))
    const purchase = JSON.parse(text(bought))
    assert.isObject(purchase.data.summary)
    assert.containsSubset(purchase, { price_stx: '0.005', remaining_budget_stx: '0.995' })
    const payments = await paymentsOfSender()
    assert.deepEqual(
      payments.map((payment) => [`0x${payment.txid}`, payment.status]),
      [[purchase.txid, 'confirmed']]
    )
  }).timeout(20_000)

  test('over stdio: refuses a price over the per-call cap, bad arguments and a URL of another service, paying nothing', async ({
    assert,
    cleanup,
  }) => {
    const client = await connect(
      new StdioClientTransport({
        command: NODE,
        args: [MAIN],
        env: serverEnv({ maxPerCall: '0.001', budget: '1' }),
      })
    )
    cleanup(() => client.close())

    const overCap = await call(client, 'buy_feed', { feed: 'whale-alerts' })
    const missing = await call(client, 'buy_feed', {})
    const absurd = await call(client, 'buy_feed', { feed: 'whale-alerts', params: 'all of them' })
    const elsewhere = await call(client, 'buy_feed', {
      feed: `${stack.devnet.url}/feeds/whale-alerts`,
    })

    assert.isTrue(overCap.isError)
    assert.equal(
      text(overCap),
      'This feed costs 0.005 STX; the per-call cap is 0.001 STX. Nothing was paid. ' +
        'Ask the operator to raise TOLLBOOTH_MAX_PER_CALL or choose a cheaper feed.'
    )
    assert.isTrue(missing.isError)
    assert.include(text(missing), 'feed')
    assert.isTrue(absurd.isError)
    assert.include(text(absurd), 'params')
    assert.isTrue(elsewhere.isError)
    assert.include(text(elsewhere), `buy_feed pays only for the feeds of ${BASE_URL}`)
    assert.equal(await broadcastCount(), 0)
    assert.lengthOf(await paymentsOfSender(), 0)
  }).timeout(20_000)

  test('over HTTP: requires the operator token, buys, and refuses a call over budget paying nothing', async ({
    assert,
    cleanup,
  }) => {
    const url = await startHttp({ maxPerCall: '0.01', budget: '0.005' }, cleanup)
    const client = await connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      })
    )
    cleanup(() => client.close())

    const withoutToken = await fetch(url, { method: 'POST', body: '{}' })
    const wrongToken = await fetch(url, {
      method: 'POST',
      headers: { authorization: 'Bearer not-the-token' },
      body: '{}',
    })
    const { tools } = await client.listTools()
    const bought = await call(client, 'buy_feed', { feed: 'whale-alerts' })
    const overBudget = await call(client, 'buy_feed', { feed: 'whale-alerts' })

    assert.equal(withoutToken.status, 401)
    assert.equal(wrongToken.status, 401)
    assert.sameMembers(
      tools.map((tool) => tool.name),
      ['search_feeds', 'describe_feed', 'buy_feed']
    )
    assert.notOk(bought.isError, text(bought))
    assert.isObject(JSON.parse(text(bought)).data.summary)
    assert.isTrue(overBudget.isError)
    assert.equal(
      text(overBudget),
      'This feed costs 0.005 STX; only 0 STX is left of the budget. Nothing was paid. ' +
        'Ask the operator to raise TOLLBOOTH_BUDGET (and restart the server) or choose a cheaper feed.'
    )
    assert.equal(await broadcastCount(), 1)
    assert.lengthOf(await paymentsOfSender(), 1)
  }).timeout(20_000)

  test('refuses to serve HTTP without an operator token', async ({ assert }) => {
    const withoutToken: Record<string, string> = serverEnv({ maxPerCall: '0.01', budget: '1' })
    delete withoutToken.TOLLBOOTH_MCP_TOKEN
    const child = spawn(NODE, [MAIN, '--http', '--port', '0'], { env: withoutToken })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk))

    const [exitCode] = await once(child, 'exit')

    assert.equal(exitCode, 1)
    assert.include(stderr, 'TOLLBOOTH_MCP_TOKEN is not set')
  })
})
