import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Client } from '../src/client.ts'
import { createMcpServer } from '../src/mcp/server.ts'
import { creditService } from './support/credit_service.ts'
import {
  BASE_URL,
  STACKS_API,
  json,
  nonces,
  quote,
  stubClient,
  stubFetch,
} from './support/stub_fetch.ts'

/** An MCP client connected in memory to the server over `client`. */
async function connectedMcp(client: Client) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await createMcpServer(client, { baseUrl: BASE_URL, maxPerCallMicrostx: 10_000n }).connect(
    serverSide
  )
  const mcp = new McpClient({ name: 'unit', version: '1.0.0' })
  await mcp.connect(clientSide)
  return mcp
}

test('buy_feed reports the budget once the payments of unknown outcome are looked up on the chain', async () => {
  let payments = 0
  const looked: string[] = []
  const { fetch } = stubFetch((request) => {
    const url = new URL(request.url)
    if (url.origin === STACKS_API) {
      if (url.pathname.endsWith('/nonces')) return nonces(payments)
      looked.push(url.pathname)
      // The first payment: aborted on chain, it moved nothing.
      return json(200, { tx_status: 'abort_by_response' })
    }
    if (!request.headers.has('payment-signature')) return quote('5000')
    payments++
    return payments === 1
      ? json(500, { error: { code: 'internal_error', message: 'settlement failed' } })
      : json(200, { data: { ok: true }, price: 5000, last_updated: null })
  })
  const client = stubClient(fetch, { budgetMicrostx: 1_000_000 })
  const mcp = await connectedMcp(client)
  const buy = async () =>
    (await mcp.callTool({
      name: 'buy_feed',
      arguments: { feed: 'whale-alerts' },
    })) as CallToolResult
  const text = (result: CallToolResult) => (result.content[0] as { text: string }).text

  const failed = await buy()
  const bought = await buy()

  assert.equal(failed.isError, true)
  assert.match(text(failed), /The payment may have been taken/)
  assert.equal(bought.isError, undefined, text(bought))
  // 1 STX less the second call only: the aborted first payment is back in the budget.
  assert.equal(JSON.parse(text(bought)).remaining_budget_stx, '0.995')
  assert.equal(looked.length, 1)
  assert.deepEqual(client.spent().unknown, [])
  await mcp.close()
})

test('describe_feed names both ways to pay; buy_feed pays from the credit the operator configured', async () => {
  const { fetch, state } = creditService()
  const client = stubClient(fetch, {
    budgetMicrostx: 1_000_000,
    credit: { topUpMicrostx: 20_000 },
  })
  const mcp = await connectedMcp(client)
  const call = async (name: string) => {
    const result = (await mcp.callTool({
      name,
      arguments: { feed: 'whale-alerts' },
    })) as CallToolResult
    assert.equal(result.isError, undefined, JSON.stringify(result.content))
    return JSON.parse((result.content[0] as { text: string }).text)
  }

  const described = await call('describe_feed')
  const first = await call('buy_feed')
  const second = await call('buy_feed')

  assert.deepEqual(
    described.ways_to_pay.map((way: { method: string }) => way.method),
    ['per_call', 'prepaid_credit']
  )
  assert.equal(described.ways_to_pay[1].top_up_minimum_stx, '0.01')
  assert.equal(described.buy_feed_pays_with, 'prepaid_credit')
  for (const bought of [first, second]) {
    assert.equal(bought.paid_with, 'prepaid_credit')
    assert.equal(bought.txid, null)
    assert.deepEqual(bought.data, { paid: 'from credit' })
  }
  assert.equal(second.credit_balance_stx, '0.01')
  // The top-up, not the calls, counts against the budget.
  assert.equal(second.remaining_budget_stx, '0.98')
  assert.deepEqual(state.transfers, [{ kind: 'top_up', amount: 20_000n }])
  await mcp.close()
})

test('buy_feed whose credit call lost every answer names its payment_identifier; called again with it, debited once', async () => {
  const { fetch, state } = creditService()
  const client = stubClient(fetch, {
    budgetMicrostx: 1_000_000,
    maxRetryAfterMs: 1,
    credit: { topUpMicrostx: 20_000 },
  })
  const mcp = await connectedMcp(client)
  const buy = async (args: Record<string, string> = {}) =>
    (await mcp.callTool({
      name: 'buy_feed',
      arguments: { feed: 'whale-alerts', ...args },
    })) as CallToolResult
  const text = (result: CallToolResult) => (result.content[0] as { text: string }).text
  await buy()
  state.next.push('lose', 'lose', 'lose', 'lose', 'lose')

  const lost = await buy()
  const id = /payment_identifier "([\w-]+)"/.exec(text(lost))?.[1]
  const retried = await buy({ payment_identifier: id! })

  assert.equal(lost.isError, true)
  assert.match(text(lost), /without paying twice/)
  assert.equal(retried.isError, undefined, text(retried))
  assert.deepEqual(JSON.parse(text(retried)).data, { paid: 'from credit' })
  assert.equal(state.balance, 10_000n)
  await mcp.close()
})
