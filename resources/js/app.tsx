import { type ComponentType, h, render } from 'preact'

/**
 * The pages are rendered by the server (Edge); the parts that move are
 * Preact islands: an element `data-island="<name>"` with its props as JSON in
 * `data-props`. Each island is its own chunk, loaded only where a page uses it.
 */
const islands: Record<string, () => Promise<{ default: ComponentType<any> }>> = {
  'account': () => import('./islands/account'),
  'activity': () => import('./islands/activity'),
  'credit': () => import('./islands/credit'),
  'market-filter': () => import('./islands/market_filter'),
  'manifest-badge': () => import('./islands/manifest_badge'),
  'dashboard': () => import('./dashboard/dashboard'),
}

for (const element of document.querySelectorAll<HTMLElement>('[data-island]')) {
  const load = islands[element.dataset.island ?? '']
  if (!load) continue
  const props = JSON.parse(element.dataset.props ?? '{}')
  load().then(({ default: Island }) => {
    element.replaceChildren()
    render(h(Island, props), element)
  })
}

/** Copy buttons: `data-copy="<id>"` copies that element's text. */
document.addEventListener('click', async (event) => {
  const button = (event.target as Element).closest<HTMLButtonElement>('button[data-copy]')
  if (!button) return
  const text = document.getElementById(button.dataset.copy ?? '')?.textContent ?? ''
  await navigator.clipboard.writeText(text)
  const label = button.firstChild
  if (label) {
    label.textContent = 'Copied'
    setTimeout(() => (label.textContent = 'Copy'), 1500)
  }
})
