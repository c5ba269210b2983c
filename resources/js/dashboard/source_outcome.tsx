import { Notice, SecretReveal } from './ui'

/** The first fetch of a polled source, as the API answers it (`first_poll`). */
export type FirstPoll =
  { result: 'ok' } | { result: 'failed'; error: string } | { result: 'scheduled' }

/**
 * What a new or changed source answered, in words: the push secret (shown
 * this once) and whether the first fetch of a URL worked.
 */
export function SourceOutcome(props: { pushSecret?: string; firstPoll?: FirstPoll }) {
  const { pushSecret, firstPoll } = props
  return (
    <>
      {pushSecret && (
        <SecretReveal title="Your push secret" secret={pushSecret}>
          <p class="small">
            Your system signs each document it pushes to Tollbooth with it (see the Hosted Mirror
            guide). It is shown this once; rotate it if you lose it.
          </p>
        </SecretReveal>
      )}
      {firstPoll?.result === 'ok' && (
        <Notice kind="ok">
          <p>We fetched your source once already: buyers can call the feed now.</p>
        </Notice>
      )}
      {firstPoll?.result === 'failed' && (
        <Notice kind="warn">
          <p>
            We could not fetch your source yet: {firstPoll.error}. Buyers get “unavailable” (and pay
            nothing) until a fetch works; we keep trying on schedule.
          </p>
        </Notice>
      )}
      {firstPoll?.result === 'scheduled' && (
        <Notice kind="ok">
          <p>We will fetch your source within a minute.</p>
        </Notice>
      )}
    </>
  )
}
