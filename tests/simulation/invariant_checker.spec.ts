import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { APPLICATION_NAME, InvariantChecker } from '#tests/simulation/invariant_checker'
import { type Observations, contextNow, servedResponse } from '#tests/simulation/invariants'
import { emptyMarketplaceLater } from '#tests/support/database'
import { newWallet } from '#tests/support/credit'

const SERVED =
  'every served paid response matches one confirmed or pending payment (a top-up: confirmed)'
const NO_CHAIN = { balanceOf: () => 0n }

function nothingObserved(): Observations {
  return {
    served: [],
    creditCalls: [],
    creditIdentifiers: new Set(),
    refusedRetries: [],
    internalErrors: [],
  }
}

/** What a run observed when it saw one paid answer, for `txid`, at step 3. */
function servedAnswer(txid: string, body: string) {
  const observed = nothingObserved()
  observed.served.push(servedResponse(txid, body, 3, 'feed'))
  return () => contextNow(NO_CHAIN, [], observed)
}

const aTxid = () => randomBytes(32).toString('hex')

async function withChecker(use: (checker: InvariantChecker) => Promise<void>) {
  const checker = await InvariantChecker.connect()
  try {
    await use(checker)
  } finally {
    await checker.close()
  }
}

test.group('Invariant checker', (group) => {
  group.each.setup(() => emptyMarketplaceLater())

  test('judges the database as it was when the check began, whatever commits while it runs', async ({
    assert,
  }) => {
    await withChecker(async (checker) => {
      const txid = aTxid()
      const body = '{"price":1}'

      const feed = await db.from('feeds').whereNull('provider_id').firstOrFail()
      await db.transaction(async (trx) => {
        // The check's read waits for this lock; its snapshot is taken before.
        await trx.rawQuery('LOCK TABLE payments IN ACCESS EXCLUSIVE MODE')
        await checker.begin(3, servedAnswer(txid, body))
        // What the next step commits while the check of step 3 runs.
        await trx.table('payments').insert({
          txid,
          purpose: 'feed',
          feed_id: feed.id,
          resource: `GET /feeds/${feed.slug}`,
          payer: newWallet().address,
          amount_microstx: '1000',
          network: 'stacks:2147483648',
          raw_tx: Buffer.from([1]),
          status: 'broadcast',
          broadcast_at: new Date(),
          response: body,
        })
      })
      assert.deepEqual(await checker.outcome(), {
        step: 3,
        violations: [`${SERVED}: step 3 served data for 0x${txid}, unknown`],
      })

      await checker.begin(4, servedAnswer(txid, body))
      assert.deepEqual(await checker.outcome(), { step: 4, violations: [] })

      await checker.begin(5, servedAnswer(txid, '{"price":2}'))
      assert.deepEqual(await checker.outcome(), {
        step: 5,
        violations: [`${SERVED}: step 3 served other bytes than payment 0x${txid} stored`],
      })
    })
  })

  test('judges what the run had observed when the check began, not what the next step adds', async ({
    assert,
  }) => {
    await withChecker(async (checker) => {
      const observed = nothingObserved()
      await checker.begin(1, () => contextNow(NO_CHAIN, [], observed))
      observed.internalErrors.push('step 2: 500 internal_error')
      assert.deepEqual(await checker.outcome(), { step: 1, violations: [] })

      // Nothing committed since: the same rows, judged against what was observed since.
      await checker.begin(2, () => contextNow(NO_CHAIN, [], observed))
      assert.deepEqual(await checker.outcome(), {
        step: 2,
        violations: ['no request failed on the service side (500): step 2: 500 internal_error'],
      })
    })
  })

  test('a check whose connection is lost is a verdict, and so is every check after it', async ({
    assert,
  }) => {
    await withChecker(async (checker) => {
      await db.rawQuery(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?',
        [APPLICATION_NAME]
      )
      await checker.begin(1, servedAnswer(aTxid(), '{}'))
      const lost = await checker.outcome()
      assert.equal(lost?.step, 1)
      assert.lengthOf(lost!.violations, 1)
      assert.match(lost!.violations[0], /^the invariants could not be checked: /)

      await checker.begin(2, servedAnswer(aTxid(), '{}'))
      const next = await checker.outcome()
      assert.match(next!.violations[0], /^the invariants could not be checked: /)
    })
  })

  test('has no verdict before a check begins, and one check at a time', async ({ assert }) => {
    await withChecker(async (checker) => {
      assert.isNull(await checker.outcome())
      await checker.begin(1, servedAnswer(aTxid(), '{}'))
      await assert.rejects(
        () => checker.begin(2, servedAnswer(aTxid(), '{}')),
        'a check is still pending: take its outcome first'
      )
      const verdict = await checker.outcome()
      assert.equal(verdict?.step, 1)
    })
  })
})
