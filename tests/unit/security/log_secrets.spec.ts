import { test } from '@japa/runner'
import { makeSTXTokenTransfer, privateKeyToPublic, randomPrivateKey } from '@stacks/transactions'
import { findSecrets } from '#tests/support/log_secrets'

const line = (fields: Record<string, unknown>) => JSON.stringify({ level: 20, ...fields })

/** The scanner the whole test run's log goes through: it must see each kind of secret. */
test.group('Finding secrets in a log', () => {
  test('finds each kind of secret by its shape, naming the line', async ({ assert }) => {
    const key = randomPrivateKey()
    const tx = await makeSTXTokenTransfer({
      recipient: 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG',
      amount: 5_000n,
      fee: 1_000n,
      nonce: 0n,
      network: 'devnet',
      senderKey: key,
    })
    const header = Buffer.from(
      JSON.stringify({ x402Version: 2, payload: { transaction: tx.serialize() } })
    ).toString('base64')
    const log = [
      line({ msg: 'fine', txid: `0x${tx.txid()}`, public_key: privateKeyToPublic(key) }),
      line({ msg: 'registered', hmac: `tbs_${'A'.repeat(43)}` }),
      line({ msg: 'pushed', secret: `tbp_${'b'.repeat(43)}` }),
      line({ authorization: `Bearer oat_MTI.${'c'.repeat(40)}` }),
      line({ key }),
      line({ raw: tx.serialize() }),
      line({ headers: { 'payment-signature': header } }),
    ].join('\n')

    const findings = findSecrets(log)

    assert.deepEqual(
      findings.map(({ line: at, kind }) => [at, kind]),
      [
        [2, 'Partner Bridge secret (tbs_)'],
        [3, 'push secret (tbp_)'],
        [4, 'session token (oat_)'],
        [5, 'private key'],
        [6, 'signed transaction hex'],
        [7, 'signed transaction hex'],
      ]
    )
  })

  test('finds exact known values, and never repeats a secret in full', ({ assert }) => {
    const appKey = 'test-app-key-not-secret-0123456789abcdef'
    const findings = findSecrets(line({ config: { appKey } }), [{ kind: 'APP_KEY', value: appKey }])

    assert.lengthOf(findings, 1)
    assert.equal(findings[0].kind, 'APP_KEY')
    assert.notInclude(findings[0].excerpt, appKey)
  })
})
