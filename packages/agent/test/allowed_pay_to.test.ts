import assert from 'node:assert/strict'
import { test } from 'node:test'
import { allowedPayToFromEnv } from '../src/client.ts'
import { readConfig } from '../src/mcp/config.ts'

const SERVICE = 'ST3NBRSFKX28FQ2ZJ1MAKX58HKHSDGNV5N7R21XCP'
const OTHER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG'

test('TOLLBOOTH_PAY_TO lists the addresses a client may pay, comma-separated', () => {
  assert.deepEqual(allowedPayToFromEnv({ TOLLBOOTH_PAY_TO: ` ${SERVICE}, ${OTHER} ,` }), [
    SERVICE,
    OTHER,
  ])
  // Unset or blank: no restriction, as for any x402 v2 Stacks server.
  assert.equal(allowedPayToFromEnv({}), undefined)
  assert.equal(allowedPayToFromEnv({ TOLLBOOTH_PAY_TO: ' , ' }), undefined)
})

test('the MCP server pays only the addresses of TOLLBOOTH_PAY_TO', () => {
  const env = {
    TOLLBOOTH_URL: 'http://127.0.0.1:3333',
    TOLLBOOTH_NETWORK: 'devnet',
    TOLLBOOTH_PRIVATE_KEY: 'ab'.repeat(33),
    TOLLBOOTH_MAX_PER_CALL: '0.01',
    TOLLBOOTH_BUDGET: '1',
  }

  assert.deepEqual(readConfig([], { ...env, TOLLBOOTH_PAY_TO: SERVICE }).client.allowedPayTo, [
    SERVICE,
  ])
  assert.equal(readConfig([], env).client.allowedPayTo, undefined)
})
