import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { type IncomingMessage, request as httpRequest } from 'node:http'
import { createServer as createTcpServer, type AddressInfo } from 'node:net'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import env from '#start/env'
import { SENDER } from '#tests/support/devnet'
import { registerFeedsWithUploadedRates } from '#tests/support/hosted_mirror'
import { senderNextNonce, usePaidCallStack } from '#tests/support/paid_calls'

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

  /** `tollbooth-mcp` over stdio with `environment`, connected; closed after the test. */
  async function connectStdio(cleanup: Function, environment: Record<string, string>) {
    const client = await connect(
      new StdioClientTransport({ command: NODE, args: [MAIN], env: environment })
    )
    cleanup(() => client.close())
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
  const broadcastCount = () => senderNextNonce(stack)

  async function paymentsOfSender() {
    return db.from('payments').where('payer', SENDER.address)
  }

  /** `tollbooth-mcp --http --port 0 …args`, and the URL it says it listens on. */
  async function startHttp(
    caps: { maxPerCall: string; budget: string },
    cleanup: Function,
    args: string[] = []
  ) {
    const child = spawn(NODE, [MAIN, '--http', '--port', '0', ...args], { env: serverEnv(caps) })
    cleanup(() => child.kill())
    let stderr = ''
    child.stderr.setEncoding('utf8')
    for await (const chunk of child.stderr) {
      stderr += chunk
      const listening = /listening on (http\S+)/.exec(stderr)
      if (listening) return new URL(listening[1])
    }
    throw new Error(`tollbooth-mcp exited: ${stderr}`)
  }

  /** How `tollbooth-mcp …args` ends when it does not start: its exit code and stderr. */
  async function refusedStart(args: string[], environment: Record<string, string>) {
    const child = spawn(NODE, [MAIN, ...args], { env: environment })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk))
    const [exitCode] = await once(child, 'close')
    return { exitCode, stderr }
  }

  /**
   * A JSON-RPC POST carrying the operator token, sent with node:http (fetch
   * cannot set Host) as a browser page would: `headers` set Host and Origin.
   */
  async function rawPost(url: URL, headers: Record<string, string>, message: object) {
    const request = httpRequest(url, {
      method: 'POST',
      headers: {
        'authorization': `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        'accept': 'application/json, text/event-stream',
        ...headers,
      },
    })
    request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }))
    const [response] = (await once(request, 'response')) as [IncomingMessage]
    let body = ''
    for await (const chunk of response) body += chunk
    return { status: response.statusCode, body: JSON.parse(body) }
  }

  test('over stdio: lists its three tools, describes a feed and buys it', async ({
    client: http,
    assert,
    cleanup,
  }) => {
    await registerFeedsWithUploadedRates(http)
    const client = await connectStdio(cleanup, serverEnv({ maxPerCall: '0.01', budget: '1' }))

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

  test('over stdio with TOLLBOOTH_CREDIT_TOP_UP: describe_feed names both ways to pay; buy_feed tops up once and pays from credit', async ({
    assert,
    cleanup,
  }) => {
    const client = await connectStdio(cleanup, {
      ...serverEnv({ maxPerCall: '0.01', budget: '1' }),
      TOLLBOOTH_CREDIT_TOP_UP: '0.2',
      // The service names itself by its PUBLIC_URL (localhost in tests), not 127.0.0.1.
      TOLLBOOTH_CREDIT_HOSTS: `localhost:${env.get('PORT')}`,
    })

    const described = JSON.parse(
      text(await call(client, 'describe_feed', { feed: 'whale-alerts' }))
    )
    const first = JSON.parse(text(await call(client, 'buy_feed', { feed: 'whale-alerts' })))
    const second = JSON.parse(text(await call(client, 'buy_feed', { feed: 'whale-alerts' })))

    assert.deepEqual(
      described.ways_to_pay.map((way: { method: string }) => way.method),
      ['per_call', 'prepaid_credit']
    )
    assert.containsSubset(described.ways_to_pay[1], {
      price_stx: '0.005',
      top_up_minimum_stx: '0.1',
    })
    assert.equal(described.buy_feed_pays_with, 'prepaid_credit')
    assert.containsSubset(first, { paid_with: 'prepaid_credit', txid: null })
    assert.isObject(first.data.summary)
    // The top-up counts against the budget, the calls it pays do not.
    assert.containsSubset(second, {
      paid_with: 'prepaid_credit',
      credit_balance_stx: '0.19',
      remaining_budget_stx: '0.8',
    })
    assert.equal(await broadcastCount(), 1)
    const payments = await paymentsOfSender()
    assert.deepEqual(
      payments.map((payment) => payment.purpose),
      ['credit_top_up']
    )
  }).timeout(30_000)

  test('over stdio: refuses a price over the per-call cap, bad arguments and a URL of another service, paying nothing', async ({
    assert,
    cleanup,
  }) => {
    const client = await connectStdio(cleanup, serverEnv({ maxPerCall: '0.001', budget: '1' }))

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

  test('over stdio: search_feeds keeps a feed priced exactly max_price_stx', async ({
    assert,
    cleanup,
  }) => {
    // 0.001001 × 10⁶ is 1000.999… in binary floating point.
    await db
      .from('feeds')
      .whereNull('provider_id')
      .where('slug', 'whale-alerts')
      .update({ price_microstx: 1001 })
    const client = await connectStdio(cleanup, serverEnv({ maxPerCall: '0.01', budget: '1' }))

    const result = await call(client, 'search_feeds', { max_price_stx: 0.001001 })

    assert.notOk(result.isError, text(result))
    assert.deepInclude(
      JSON.parse(text(result)).feeds.map((feed: { feed: string; price_stx: string }) => [
        new URL(feed.feed).pathname,
        feed.price_stx,
      ]),
      ['/feeds/whale-alerts', '0.001001']
    )
  }).timeout(20_000)

  test('over stdio: describes a feed when TOLLBOOTH_URL ends with a slash', async ({
    assert,
    cleanup,
  }) => {
    const client = await connectStdio(cleanup, {
      ...serverEnv({ maxPerCall: '0.01', budget: '1' }),
      TOLLBOOTH_URL: `${BASE_URL}/`,
    })

    const described = await call(client, 'describe_feed', { feed: 'whale-alerts' })

    assert.notOk(described.isError, text(described))
    assert.equal(JSON.parse(text(described)).price_stx, '0.005')
  }).timeout(20_000)

  test('over HTTP: refuses another Host or a foreign Origin before any tool, paying nothing', async ({
    assert,
    cleanup,
  }) => {
    const url = await startHttp({ maxPerCall: '0.01', budget: '1' }, cleanup, [
      '--allowed-host',
      'MCP.example',
    ])
    const port = url.port
    const buy = {
      method: 'tools/call',
      params: { name: 'buy_feed', arguments: { feed: 'whale-alerts' } },
    }
    const list = { method: 'tools/list' }

    // A page at rebound.example whose name now resolves to 127.0.0.1 (DNS rebinding).
    const rebound = await rawPost(url, { host: `rebound.example:${port}` }, buy)
    const otherPort = await rawPost(url, { host: `127.0.0.1:${Number(port) + 1}` }, buy)
    const foreignPage = await rawPost(
      url,
      { host: `127.0.0.1:${port}`, origin: 'https://evil.example' },
      buy
    )
    const opaquePage = await rawPost(url, { host: `localhost:${port}`, origin: 'null' }, buy)
    const extraHost = await rawPost(url, { host: `mcp.example:${port}` }, list)
    const ownPage = await rawPost(
      url,
      { host: `[::1]:${port}`, origin: `http://localhost:${port}` },
      list
    )

    for (const refused of [rebound, otherPort]) {
      assert.equal(refused.status, 403)
      assert.equal(refused.body.error.code, 'forbidden_host')
    }
    for (const refused of [foreignPage, opaquePage]) {
      assert.equal(refused.status, 403)
      assert.equal(refused.body.error.code, 'forbidden_origin')
    }
    for (const answered of [extraHost, ownPage]) {
      assert.equal(answered.status, 200)
      assert.include(
        answered.body.result.tools.map((tool: { name: string }) => tool.name),
        'buy_feed'
      )
    }
    assert.equal(await broadcastCount(), 0)
    assert.lengthOf(await paymentsOfSender(), 0)
  }).timeout(20_000)

  test('over HTTP: listens beyond loopback only with --allow-remote', async ({
    assert,
    cleanup,
  }) => {
    const url = await startHttp({ maxPerCall: '0.01', budget: '1' }, cleanup, [
      '--host',
      '0.0.0.0',
      '--allow-remote',
    ])
    const loopback = new URL(`http://127.0.0.1:${url.port}/mcp`)

    const listed = await rawPost(loopback, {}, { method: 'tools/list' })

    assert.equal(url.hostname, '0.0.0.0')
    assert.equal(listed.status, 200)
  }).timeout(20_000)

  test('refuses to start: {message}')
    .with([
      {
        args: ['--http', '--port', '0'],
        withoutToken: true,
        message: 'TOLLBOOTH_MCP_TOKEN is not set',
      },
      {
        args: ['--http', '--port', '0', '--host', '0.0.0.0'],
        message:
          'tollbooth-mcp: --host 0.0.0.0 is not a loopback address: whoever reaches it with the token spends this wallet. ' +
          'Add --allow-remote to listen there anyway (behind TLS and a firewall you trust).',
      },
      {
        args: ['--http', '--port', '0', '--host', '192.0.2.1'],
        message: '--host 192.0.2.1 is not a loopback address',
      },
      { args: ['--http', '--port', '0x0'], message: '--port must be a port number, not "0x0"' },
      {
        args: [],
        env: { TOLLBOOTH_URL: 'tollbooth.example' },
        message: "TOLLBOOTH_URL must be the service's http(s) URL",
      },
      { args: ['--http', '--port', ''], message: '--port must be a port number, not ""' },
      {
        args: ['--port', '3031'],
        message:
          'tollbooth-mcp: --port is an option of --http: add --http to serve HTTP, or leave it out for stdio',
      },
      {
        args: ['--http', '--port', '0', '--allowed-host', 'mcp.example/x'],
        message: '--allowed-host must be a host name or address, not "mcp.example/x"',
      },
    ])
    .run(async ({ assert }, { args, withoutToken, env: overrides, message }) => {
      const environment: Record<string, string> = {
        ...serverEnv({ maxPerCall: '0.01', budget: '1' }),
        ...overrides,
      }
      if (withoutToken) delete environment.TOLLBOOTH_MCP_TOKEN

      const { exitCode, stderr } = await refusedStart(args, environment)

      assert.equal(exitCode, 1)
      assert.include(stderr, message)
    })

  test('says so and exits when its port is taken', async ({ assert, cleanup }) => {
    const taken = createTcpServer()
    await once(taken.listen(0, '127.0.0.1'), 'listening')
    cleanup(() => void taken.close())
    const port = (taken.address() as AddressInfo).port

    const { exitCode, stderr } = await refusedStart(
      ['--http', '--port', String(port)],
      serverEnv({ maxPerCall: '0.01', budget: '1' })
    )

    assert.equal(exitCode, 1)
    assert.include(stderr, `tollbooth-mcp: cannot listen on 127.0.0.1:${port}: listen EADDRINUSE`)
  })
})
