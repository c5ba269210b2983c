import { test } from '@japa/runner'
import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  DEFAULT_ACCOUNT_BALANCE,
  DevnetStateError,
  removeDevnetState,
  startDevnet,
  stateFileHolder,
  type Devnet,
  type StartDevnetOptions,
} from '../src/index.js'
import { FEE, RECIPIENT, SENDER, broadcast, transfer } from '../src/testing.js'
import { broadcastStatus, getJson, txStatusOf } from './helpers.js'

const CLOCK_MS = Date.UTC(2025, 0, 2, 3, 4, 5)
const FUNDED = 'ST2JHG361ZXG51QTKY2NQCVBPPRRE2KZB1HR05NNC'

test.group('Devnet state file', (group) => {
  let dir = ''
  let statePath = ''
  const running = new Set<Devnet>()

  group.each.setup(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-state-'))
    statePath = join(dir, 'chain', 'devnet.json')
    return async () => {
      await Promise.all([...running].map((devnet) => devnet.stop()))
      running.clear()
      await rm(dir, { recursive: true, force: true })
    }
  })

  async function start(options: StartDevnetOptions = {}): Promise<Devnet> {
    const devnet = await startDevnet({
      port: 0,
      blockTimeMs: null,
      now: () => CLOCK_MS,
      statePath,
      ...options,
    })
    running.add(devnet)
    return devnet
  }

  async function stop(devnet: Devnet): Promise<void> {
    await devnet.stop()
    running.delete(devnet)
  }

  /** Everything a client can read about these transactions and accounts. */
  async function answers(devnet: Devnet, txids: string[]) {
    const query = txids.map((txid) => `tx_id=0x${txid}`).join('&')
    const paths = {
      transactions: `/extended/v1/tx/multiple?${query}`,
      senderNonces: `/extended/v1/address/${SENDER.address}/nonces`,
      senderStx: `/extended/v1/address/${SENDER.address}/stx`,
      recipientStx: `/extended/v1/address/${RECIPIENT}/stx`,
      senderAccount: `/v2/accounts/${SENDER.address}`,
      info: '/v2/info',
      status: '/extended/v1/status',
    }
    const bodies: Record<string, unknown> = {}
    for (const [name, path] of Object.entries(paths)) {
      const { body } = await getJson(devnet, path)
      bodies[name] = body
    }
    return bodies
  }

  test('a devnet restarted on its file answers as before, keeps its mempool and continues the chain', async ({
    assert,
  }) => {
    const first = await start()
    assert.isFalse(first.restored)
    const mined = await transfer({ nonce: 0n, amount: 2_000_000n })
    const aborted = await transfer({ nonce: 1n, amount: 3_000n })
    first.faults.abort(aborted.txid())
    assert.equal(await broadcastStatus(first, mined), 200)
    assert.equal(await broadcastStatus(first, aborted), 200)
    await first.mine()
    await first.mine()
    const outbid = await transfer({ nonce: 2n, amount: 4_000n, fee: FEE })
    const pending = await transfer({ nonce: 2n, amount: 5_000n, fee: FEE + 1n })
    assert.equal(await broadcastStatus(first, outbid), 200)
    assert.equal(await broadcastStatus(first, pending), 200)
    const txids = [mined, aborted, outbid, pending].map((tx) => tx.txid())
    const before = await answers(first, txids)
    await stop(first)

    const second = await start()
    assert.isTrue(second.restored)
    assert.deepEqual(await answers(second, txids), before)
    assert.equal(await txStatusOf(second, mined.txid()), 'success')
    assert.equal(await txStatusOf(second, aborted.txid()), 'abort_by_response')
    assert.equal(await txStatusOf(second, outbid.txid()), 'dropped_replace_by_fee')
    assert.equal(await txStatusOf(second, pending.txid()), 'pending')
    assert.equal(second.blockHeight(), 2)
    assert.equal(second.nonceOf(SENDER.address), 2n)

    const next = await second.mine()
    assert.equal(next.blockHeight, 3)
    assert.deepEqual(next.txids, [pending.txid()])
    assert.equal(await txStatusOf(second, pending.txid()), 'success')
    assert.equal(second.nonceOf(SENDER.address), 3n)
    assert.equal(second.balanceOf(RECIPIENT), DEFAULT_ACCOUNT_BALANCE + 2_000_000n + 5_000n)
  })

  test('an accepted transaction is in the file before its broadcast is answered', async ({
    assert,
  }) => {
    const devnet = await start()
    const tx = await transfer({})
    assert.equal(await broadcastStatus(devnet, tx), 200)

    const saved = JSON.parse(await readFile(statePath, 'utf8'))
    assert.deepEqual(saved.mempool, [tx.txid()])
    assert.equal(saved.transactions[0].amount, '1000000')
    assert.equal(saved.accounts[SENDER.address].balance, DEFAULT_ACCOUNT_BALANCE.toString())
  })

  test('a restored mempool is mined at start when every transaction gets its block', async ({
    assert,
  }) => {
    const manual = await start()
    const tx = await transfer({})
    await broadcast(manual, tx)
    await stop(manual)

    const instant = await start({ blockTimeMs: 0 })
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(instant.blockHeight(), 1)
    assert.equal(await txStatusOf(instant, tx.txid()), 'success')
  })

  test('extra funding is applied at a new chain’s genesis only, not on each restart', async ({
    assert,
  }) => {
    const fund = [{ address: FUNDED, amount: 7_000_000n }]
    await stop(await start({ fund }))
    const restarted = await start({ fund })

    assert.isTrue(restarted.restored)
    assert.equal(restarted.balanceOf(FUNDED), DEFAULT_ACCOUNT_BALANCE + 7_000_000n)
  })

  test('a corrupt or foreign file is refused with an error naming it, and left as it was', async ({
    assert,
  }) => {
    await stop(await start())
    const valid = await readFile(statePath, 'utf8')

    const cases: [string, RegExp][] = [
      [valid.slice(0, -10), /not valid JSON/],
      [JSON.stringify({ hello: 'world' }), /not a devnet state file/],
      [
        valid.replace('"version":1', '"version":2'),
        /format version 2, but this devnet reads version 1 only/,
      ],
      [
        valid.replace(/"balance":"\d+"/, '"balance":100'),
        /accounts\.ST\w+\.balance: expected a non-negative integer as a decimal string/,
      ],
    ]
    for (const [text, reason] of cases) {
      await writeFile(statePath, text)
      const error = await startDevnet({ port: 0, statePath }).then(
        () => assert.fail('the devnet started'),
        (thrown: unknown) => thrown
      )
      assert.instanceOf(error, DevnetStateError)
      assert.include((error as Error).message, `Cannot use the devnet state file ${statePath}:`)
      assert.match((error as Error).message, reason)
      assert.include((error as Error).message, 'move or delete the file to start a new chain')
      assert.equal(await readFile(statePath, 'utf8'), text)
      assert.isNull(await stateFileHolder(statePath))
    }
  })

  test('one devnet per file: a second is refused while the first runs; a dead holder’s lock is taken over', async ({
    assert,
  }) => {
    const first = await start()
    assert.equal(await stateFileHolder(statePath), process.pid)
    await assert.rejects(
      () => startDevnet({ port: 0, statePath }),
      /in use by another devnet of this process/
    )
    await stop(first)
    assert.isNull(await stateFileHolder(statePath))

    const gone = spawnSync(process.execPath, ['-e', '']).pid
    await writeFile(`${statePath}.lock`, `${gone}\n`)
    assert.isNull(await stateFileHolder(statePath))
    const second = await start()
    assert.isTrue(second.restored)
  })

  test('removing the state starts a new chain; refused while a devnet uses it', async ({
    assert,
  }) => {
    const devnet = await start()
    await broadcast(devnet, await transfer({}))
    await devnet.mine()
    await assert.rejects(() => removeDevnetState(statePath), /in use/)
    await stop(devnet)

    assert.deepEqual(await removeDevnetState(statePath), [statePath])
    assert.deepEqual(await removeDevnetState(statePath), [])
    const fresh = await start()
    assert.isFalse(fresh.restored)
    assert.equal(fresh.blockHeight(), 0)
    assert.equal(fresh.nonceOf(SENDER.address), 0n)
  })

  test('without a state file nothing is written', async ({ assert }) => {
    const devnet = await start({ statePath: undefined })
    await broadcast(devnet, await transfer({}))
    await devnet.mine()
    assert.isNull(devnet.statePath)
    await assert.rejects(() => readFile(statePath), /ENOENT/)
  })
})
