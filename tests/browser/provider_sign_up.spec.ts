import { test } from '@japa/runner'
import { randomPrivateKey } from '@stacks/transactions'
import Provider from '#models/provider'
import { type PartnerServer, startPartnerServer } from '#tests/support/partner_server'
import { screenshot, signInThroughPage, useBrowser } from '#tests/support/browser'

test.group('Signing up as a provider', (group) => {
  const { session, setWallet } = useBrowser(group)
  let partner: PartnerServer

  group.each.setup(async () => {
    partner = await startPartnerServer({ routes: ['/v1/prices'] })
    return () => partner.close()
  })

  test('signs in with the wallet, registers a live Partner Bridge feed; the secret is shown once', async ({
    assert,
  }) => {
    const wallet = setWallet([randomPrivateKey()])
    const { page } = session
    await page.goto(session.url('/dashboard/register'))
    await screenshot(page, 'sign-in')

    await signInThroughPage(page)
    await page.getByRole('heading', { name: 'How will buyers get your data?' }).waitFor()
    assert.deepEqual(
      wallet.requests.map((request) => request.method),
      ['getAddresses', 'stx_signMessage']
    )
    assert.include(
      (wallet.requests[1].params as { message: string }).message,
      'wants you to sign in with your Stacks account:'
    )
    await page.getByRole('link', { name: /^Provider sign-in/ }).waitFor({ state: 'detached' })

    await page.getByLabel(/Partner Bridge: you run an API/).check()
    await page.getByRole('button', { name: 'Continue' }).click()

    // The handle is checked as it is typed.
    const handle = page.getByLabel('Handle')
    await handle.fill('admin')
    await page.getByText('The handle "admin" is reserved').waitFor()
    await handle.fill('acme-data')
    await page.getByText('“acme-data” is available').waitFor()
    await page.getByLabel('Display name').fill('Acme Data')
    await page
      .getByLabel('One-sentence pitch (optional)')
      .fill('Spot prices from our own matching engine')
    await page.getByLabel("Your API's address").fill(partner.url)
    await screenshot(page, 'register')
    await page.getByRole('button', { name: 'Continue' }).click()

    await page.getByLabel('Feed name').fill('BTC spot price')
    const feedAddress = page.getByLabel('Feed address')
    assert.equal(await feedAddress.inputValue(), 'btc-spot-price')
    // The browser itself refuses an address the API would refuse.
    const input = `document.getElementById('${await feedAddress.getAttribute('id')}')`
    const mismatches = () => page.evaluate<boolean>(`${input}.validity.patternMismatch`)
    await feedAddress.fill('BTC spot-')
    assert.isTrue(await mismatches())
    await feedAddress.fill('btc-spot-price')
    assert.isFalse(await mismatches())
    await page.getByLabel('Price per call').fill('0.01')
    await page.getByLabel('Path on your API').fill('/v1/prices')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('button', { name: 'Register and go live' }).click()

    const secret = await page.getByTestId('secret-value').innerText()
    assert.match(secret, /^tbs_[A-Za-z0-9_-]{43}$/)
    await page.getByText('this is the only time it is shown').waitFor()
    await screenshot(page, 'secret-shown-once')
    const provider = await Provider.findByOrFail('handle', 'acme-data')
    assert.equal(provider.ownerWallet, wallet.address)
    assert.equal(new URL(page.url()).pathname, `/dashboard/p/${provider.id}`)

    // A reload never shows it again.
    await page.reload()
    await page.getByRole('heading', { name: 'Acme Data' }).waitFor()
    assert.notInclude(await page.content(), secret)

    // Nothing earned yet: the next step leads, and Withdraw waits, saying why.
    assert.deepEqual(await page.locator('.page-head .btn-primary').allInnerTexts(), [
      'Link a withdrawal wallet',
    ])
    const withdraw = page.getByRole('button', { name: 'Withdraw' })
    assert.isTrue(await withdraw.isDisabled())
    assert.equal(
      await page.locator(`#${await withdraw.getAttribute('aria-describedby')}`).innerText(),
      'Nothing to withdraw yet: paid calls to your feeds add to your pending revenue.'
    )

    // The partner's server, holding the secret, verifies our signed calls.
    partner.secret = secret
    await page.getByRole('link', { name: 'Integration' }).click()
    await page.getByText('it was shown once and is never shown again').waitFor()
    assert.notInclude(await page.content(), secret)
    await page.getByRole('button', { name: 'Run the handshake test' }).click()
    await page.getByTestId('verdict').filter({ hasText: 'It works.' }).waitFor()
    assert.isTrue(partner.calls.at(-1)?.verification.ok)
    await screenshot(page, 'integration')

    // And the feed is live in the marketplace.
    await page.goto(session.url('/'))
    const card = page.locator('[data-feed-card]', { hasText: 'BTC spot price' })
    assert.include(await card.innerText(), 'by Acme Data')
    assert.include(await card.innerText(), '0.01 STX')
  })
})
