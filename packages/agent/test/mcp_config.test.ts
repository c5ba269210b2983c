import assert from 'node:assert/strict'
import { test } from 'node:test'
import { readConfig } from '../src/mcp/config.ts'
import { formatStx, parseStx } from '../src/mcp/stx.ts'

const ENV = {
  TOLLBOOTH_URL: 'http://127.0.0.1:3333',
  TOLLBOOTH_NETWORK: 'devnet',
  TOLLBOOTH_PRIVATE_KEY: 'ab'.repeat(33),
  TOLLBOOTH_MAX_PER_CALL: '0.01',
  TOLLBOOTH_BUDGET: '1.5',
  TOLLBOOTH_MCP_TOKEN: 'a-long-enough-operator-token',
}

test('STX amounts are read and written in whole µSTX', () => {
  assert.equal(parseStx('0.005', 'X'), 5_000n)
  assert.equal(parseStx('2', 'X'), 2_000_000n)
  assert.equal(formatStx(5_000n), '0.005')
  assert.equal(formatStx(1_500_000n), '1.5')
  assert.equal(formatStx(0n), '0')
  for (const bad of ['', '-1', '0.0000001', '1e3', 'ten']) {
    assert.throws(() => parseStx(bad, 'TOLLBOOTH_BUDGET'), /TOLLBOOTH_BUDGET must be an amount/)
  }
})

test('the caps and the key come from the environment; stdio by default', () => {
  const config = readConfig([], ENV)

  assert.equal(config.http, null)
  assert.equal(config.client.maxPerCallMicrostx, 10_000n)
  assert.equal(config.client.budgetMicrostx, 1_500_000n)
  assert.equal(config.client.privateKey, ENV.TOLLBOOTH_PRIVATE_KEY)
})

test('HTTP listens on loopback unless --host says otherwise, and needs the operator token', () => {
  assert.deepEqual(readConfig(['--http'], ENV).http, {
    host: '127.0.0.1',
    port: 3030,
    token: ENV.TOLLBOOTH_MCP_TOKEN,
    hostNames: ['localhost', '127.0.0.1', '[::1]'],
  })
  assert.equal(
    readConfig(['--http', '--host', '0.0.0.0', '--allow-remote', '--port', '0'], ENV).http?.host,
    '0.0.0.0'
  )
  assert.throws(
    () => readConfig(['--http'], { ...ENV, TOLLBOOTH_MCP_TOKEN: '' }),
    /TOLLBOOTH_MCP_TOKEN is not set/
  )
  assert.throws(() => readConfig(['--http', '--port', '99999'], ENV), /--port/)
  assert.throws(() => readConfig(['--private-key', 'x'], ENV), /Unknown option/)
  assert.throws(
    () => readConfig([], { ...ENV, TOLLBOOTH_PRIVATE_KEY: '' }),
    /TOLLBOOTH_PRIVATE_KEY/
  )
})

test('the HTTP options without --http are refused, not ignored', () => {
  for (const args of [
    ['--port', '3031'],
    ['--host', '127.0.0.2'],
    ['--allow-remote'],
    ['--allowed-host', 'mcp.example'],
  ]) {
    assert.throws(() => readConfig(args, ENV), new RegExp(`${args[0]} is an option of --http`))
  }
  assert.throws(
    () => readConfig(['--port', '3031', '--allowed-host', 'mcp.example'], ENV),
    /--port, --allowed-host are options of --http: add --http to serve HTTP, or leave them out/
  )
})

test('TOLLBOOTH_CREDIT_TOP_UP makes buy_feed prefer prepaid credit, topped up by that much', () => {
  assert.equal(readConfig([], ENV).client.credit, undefined)
  assert.deepEqual(readConfig([], { ...ENV, TOLLBOOTH_CREDIT_TOP_UP: '0.5' }).client.credit, {
    topUpMicrostx: 500_000n,
  })
  assert.throws(
    () => readConfig([], { ...ENV, TOLLBOOTH_CREDIT_TOP_UP: 'lots' }),
    /TOLLBOOTH_CREDIT_TOP_UP must be an amount of STX/
  )
})

test("TOLLBOOTH_CREDIT_HOSTS names the hosts besides TOLLBOOTH_URL's whose credit messages are signed", () => {
  const credit = { ...ENV, TOLLBOOTH_CREDIT_TOP_UP: '0.5' }
  assert.equal(readConfig([], credit).client.creditHosts, undefined)
  assert.deepEqual(
    readConfig([], { ...credit, TOLLBOOTH_CREDIT_HOSTS: 'tollbooth.example, localhost:3333' })
      .client.creditHosts,
    ['tollbooth.example', 'localhost:3333']
  )
})
