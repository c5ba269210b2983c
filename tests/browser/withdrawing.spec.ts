import { readFileSync } from 'node:fs'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { randomPrivateKey } from '@stacks/transactions'
import { walletOf } from '#tests/support/sign_in'
import { providerWithRevenue, useWithdrawalStack } from '#tests/support/withdrawals'
import {
  pollQuickly,
  rememberWalletChoice,
  screenshot,
  signInThroughPage,
  useBrowser,
} from '#tests/support/browser'

test.group('Withdrawing from the payouts page', (group) => {
  const { session, setWallet } = useBrowser(group)
  const stack = useWithdrawalStack(group, { blockTimeMs: null })
  group.each.setup(() => pollQuickly())

  test('links the owner wallet with its one signature, withdraws once on a double click, and follows it to "confirmed"', async ({
    client,
    assert,
  }) => {
    const { owner, providerId } = await providerWithRevenue(client, 5_000_000n, { linked: false })
    const payee = owner.key
    const wallet = setWallet([owner.key])
    const { page } = session
    await rememberWalletChoice(page)
    await page.goto(session.url(`/dashboard/p/${providerId}/payouts`))
    await signInThroughPage(page, { picker: false })
    await page.getByText('No wallet is linked yet.').waitFor()

    // The owner wallet signs once: it is both the wallet paid and the owner approving it.
    await page.getByRole('button', { name: 'Link a withdrawal wallet' }).click()
    await page
      .getByTestId('linked-wallet')
      .filter({ hasText: walletOf(payee) })
      .waitFor()
    const signed = wallet.requests.filter((request) => request.method === 'stx_signMessage')
    assert.lengthOf(signed, 2)
    assert.include((signed[1].params as { message: string }).message, 'Link ')

    await page.getByLabel('Amount').fill('2.5')
    await page.getByRole('button', { name: 'Review withdrawal' }).click()
    await page.getByTestId('withdraw-confirm').getByText('Send 2.5 STX to').waitFor()
    await page.getByRole('button', { name: 'Withdraw 2.5 STX' }).dblclick()

    const status = page.getByTestId('withdrawal-status')
    await status.filter({ hasText: 'broadcast' }).waitFor()
    const explorer = await page.getByTestId('explorer-link').getAttribute('href')
    // The devnet's own transaction page (docs/devnet.md#transaction-pages).
    assert.equal(
      explorer?.replace(/0x[0-9a-f]{64}/, '0x…'),
      `${stack.devnet.url}/txid/0x…?chain=testnet`
    )
    await page.getByTestId('pending').filter({ hasText: '2.5 STX' }).waitFor()

    await stack.devnet.mine()
    await stack.confirm()
    await status.filter({ hasText: 'confirmed' }).waitFor()
    await page.getByText(/Confirmed in block \d+/).waitFor()
    await screenshot(page, 'payouts')

    const rows = await db.from('withdrawals').where('provider_id', providerId)
    assert.lengthOf(rows, 1)
    assert.equal(rows[0].destination_address, walletOf(payee))
    assert.equal(stack.devnet.balanceOf(walletOf(payee)), 2_500_000n)

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ])
    const csv = readFileSync((await download.path())!, 'utf8')
    assert.match(csv, /^id,created_at,status,amount_microstx/)
    assert.include(csv, `confirmed,2500000,2.5,${walletOf(payee)}`)
  })

  test("linking another wallet takes the owner wallet's approval too, and the hold is said in words", async ({
    client,
    assert,
  }) => {
    const { owner, providerId } = await providerWithRevenue(client, 5_000_000n, { linked: false })
    const replacement = randomPrivateKey()
    const wallet = setWallet([owner.key, replacement])
    const { page } = session
    await rememberWalletChoice(page)
    await page.goto(session.url(`/dashboard/p/${providerId}/payouts`))
    await signInThroughPage(page, { picker: false })
    await page.getByText('No wallet is linked yet.').waitFor()

    // The person selects the receiving account in the wallet; it signs for itself.
    wallet.use(1)
    await page.getByRole('button', { name: 'Link a withdrawal wallet' }).click()
    await page.getByText('One more signature.').waitFor()
    wallet.use(0)
    await page.getByRole('button', { name: 'Sign with the owner wallet' }).click()

    await page
      .getByTestId('linked-wallet')
      .filter({ hasText: walletOf(replacement) })
      .waitFor()
    await page.getByText('withdrawals to it are held until').waitFor()
    await page
      .getByText('Your withdrawal wallet was linked recently: you can withdraw to it from')
      .waitFor()
    assert.equal(await page.getByRole('button', { name: 'Review withdrawal' }).count(), 0)
    const signers = wallet.requests.filter((request) => request.method === 'stx_signMessage')
    assert.include(
      (signers.at(-1)?.params as { message: string }).message,
      `Approve ${walletOf(replacement)} as the withdrawal wallet`
    )
  })
})
