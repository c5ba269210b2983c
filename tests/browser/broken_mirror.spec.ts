import { test } from '@japa/runner'
import { randomPrivateKey } from '@stacks/transactions'
import { type LocalSite, startLocalSite } from '#tests/support/local_site'
import {
  rememberWalletChoice,
  screenshot,
  signInThroughPage,
  useBrowser,
} from '#tests/support/browser'

test.group('A Hosted Mirror feed whose source is broken', (group) => {
  const { session, setWallet } = useBrowser(group)
  let source: LocalSite

  group.each.setup(async () => {
    source = await startLocalSite((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/html' })
      response.end('<h1>Internal Server Error</h1>')
    })
    return () => source.close()
  })

  test('says what is wrong, in words, at registration and on the feed page', async ({ assert }) => {
    setWallet([randomPrivateKey()])
    const { page } = session
    await rememberWalletChoice(page)
    await page.goto(session.url('/dashboard/register'))
    await signInThroughPage(page, { picker: false })

    await page.getByLabel(/Hosted Mirror: we host a copy/).check()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByLabel('Handle').fill('mirror-co')
    await page.getByText('“mirror-co” is available').waitFor()
    await page.getByLabel('Display name').fill('Mirror Co')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByLabel('Feed name').fill('Rates')
    await page.getByLabel('Price per call').fill('0.004')
    await page.getByLabel(/A JSON file in a code repository/).check()
    await page
      .getByLabel('URL of the JSON document')
      .fill(`http://127.0.0.1:${source.port}/rates.json`)
    await page.getByLabel('How often we fetch it').selectOption({ label: 'every 15 minutes' })
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('button', { name: 'Register and go live' }).click()

    const firstPoll = page.getByText('We could not fetch your source yet:')
    await firstPoll.waitFor()
    assert.include(await firstPoll.innerText(), 'HTTP 500')
    assert.notInclude(await page.content(), 'data-testid="one-time-secret"')

    await page.getByRole('link', { name: 'Open my dashboard' }).click()
    await page.getByText(/Source failing: .*HTTP 500/).waitFor()
    await page.getByRole('link', { name: 'Rates' }).click()
    const health = page.getByTestId('source-health')
    await health.getByText('The last fetch failed:').waitFor()
    const words = await health.innerText()
    assert.include(words, 'HTTP 500')
    assert.include(words, '1 failed attempt in a row')
    assert.include(words, 'Buyers see “No data yet” and are asked no payment until a fetch works.')
    assert.notMatch(words, /E_[A-Z_]+|undefined|\[object/)
    await screenshot(page, 'feed-source-health')

    await health.getByRole('button', { name: 'Test the source now' }).click()
    const verdict = page.getByTestId('verdict')
    await verdict.waitFor()
    assert.include(await verdict.innerText(), 'The source answered with an error.')
    assert.include(await verdict.innerText(), 'HTTP 500')

    const sourceCard = page.getByRole('form', { name: 'Source' })
    await sourceCard.getByLabel(/You upload it by hand/).check()
    await sourceCard.getByRole('button', { name: 'Save source' }).click()
    await sourceCard.getByText('Source saved.').waitFor()
    await page.getByLabel('Or paste it').fill('{"EUR": 1.08, "GBP": 1.27}')
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.getByText('Stored as version 1 (26 bytes).').waitFor()

    await sourceCard.getByLabel(/You push it to us/).check()
    await sourceCard.getByRole('button', { name: 'Save source' }).click()
    const pushSecret = page.getByTestId('one-time-secret')
    await pushSecret.waitFor()
    assert.match(await pushSecret.innerText(), /tbp_[\w-]{43}/)
  })
})
