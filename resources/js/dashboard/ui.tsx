import type { ComponentChildren, JSX } from 'preact'
import { useCallback, useRef, useState } from 'preact/hooks'
import { ApiError, errorMessage } from '../lib/api'

/** A labelled form control with its hint and the API's (or our) word on it. */
export function Field(props: {
  id: string
  label: string
  hint?: ComponentChildren
  problem?: string | null
  fine?: string | null
  children: ComponentChildren
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint && (
        <span class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </span>
      )}
      {props.problem && (
        <span class="problem" id={`${props.id}-problem`} role="alert">
          {props.problem}
        </span>
      )}
      {!props.problem && props.fine && (
        <span class="fine" role="status">
          {props.fine}
        </span>
      )}
    </div>
  )
}

type InputAttributes = Omit<JSX.IntrinsicElements['input'], 'id' | 'value' | 'onInput'>

/** A one-line input in its Field; `onValue` gets what was typed. */
export function TextField(
  props: {
    id: string
    label: string
    hint?: ComponentChildren
    problem?: string | null
    fine?: string | null
    value: string
    onValue: (value: string) => void
  } & InputAttributes
) {
  const { id, label, hint, problem, fine, value, onValue, ...input } = props
  return (
    <Field id={id} label={label} hint={hint} problem={problem} fine={fine}>
      <input
        type="text"
        {...input}
        {...described(id, problem, hint !== undefined)}
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
      />
    </Field>
  )
}

/** An amount of STX typed as a decimal, in its Field with the unit before it. */
export function StxAmountField(props: {
  id: string
  hint: ComponentChildren
  problem?: string | null
  value: string
  onValue: (value: string) => void
}) {
  const { id, hint, problem, value, onValue } = props
  return (
    <Field id={id} label="Amount" hint={hint} problem={problem}>
      <div class="input-prefix">
        <span>STX</span>
        <input
          type="text"
          inputMode="decimal"
          {...described(id, problem)}
          value={value}
          placeholder="2.5"
          onInput={(event) => onValue(event.currentTarget.value)}
        />
      </div>
    </Field>
  )
}

/** `aria-*` for a control whose Field shows a hint or a problem. */
export function described(id: string, problem?: string | null, hint = true) {
  const ids = [hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean)
  return {
    'id': id,
    'aria-invalid': problem ? (true as const) : undefined,
    'aria-describedby': ids.join(' ') || undefined,
  }
}

export function Notice(props: { kind?: 'ok' | 'warn' | 'bad'; children: ComponentChildren }) {
  return (
    <div
      class={`notice ${props.kind ? `notice-${props.kind}` : ''}`}
      role={props.kind === 'bad' ? 'alert' : 'status'}
    >
      {props.children}
    </div>
  )
}

/** A failed action, in words. */
export function Problem({ error }: { error: unknown }) {
  if (!error) return null
  return (
    <Notice kind="bad">
      <p>{errorMessage(error)}</p>
    </Notice>
  )
}

export function Spinner({ label }: { label?: string }) {
  return (
    <span class="row muted" role="status">
      <span class="spinner" aria-hidden="true" /> {label ?? 'Loading…'}
    </span>
  )
}

/**
 * An action started by a person (a click, a form): one at a time, its error
 * kept for the page to show. `run` resolves undefined when it failed.
 */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const running = useRef(false)
  const run = useCallback(
    async (...args: A): Promise<R | undefined> => {
      if (running.current) return undefined
      running.current = true
      setBusy(true)
      setError(null)
      try {
        return await action(...args)
      } catch (caught) {
        setError(caught)
        return undefined
      } finally {
        running.current = false
        setBusy(false)
      }
    },
    [action]
  )
  return { run, busy, error, setError }
}

/** The message the API gave about one field of the last failed action. */
export function fieldProblem(error: unknown, field: string) {
  return error instanceof ApiError ? error.fieldMessage(field) : undefined
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false)
  return (
    <button
      type="button"
      class="btn btn-small"
      onClick={async () => {
        await navigator.clipboard.writeText(text)
        setCopied(true)
        setTimeout(() => setCopied(false), 2000)
      }}
    >
      {copied ? 'Copied' : 'Copy'}
      <span class="visually-hidden"> {label}</span>
    </button>
  )
}

/**
 * A secret the API shows once: shown here, with a copy button and a clear
 * warning, kept only in this page's memory (never stored).
 */
export function SecretReveal(props: {
  title: string
  secret: string
  children: ComponentChildren
}) {
  return (
    <section class="card" aria-labelledby="secret-title" data-testid="one-time-secret">
      <h2 id="secret-title">{props.title}</h2>
      <Notice kind="warn">
        <p>
          <strong>Copy it now: this is the only time it is shown.</strong> Tollbooth keeps only a
          hash of it and cannot show it again. If you lose it, rotate it to get a new one (the old
          one stops working at once).
        </p>
      </Notice>
      <div class="secret">
        <code data-testid="secret-value">{props.secret}</code>
        <CopyButton text={props.secret} label={props.title} />
      </div>
      <div style="margin-top:12px">{props.children}</div>
    </section>
  )
}

/**
 * A button whose action needs a second, deliberate click in a dialog
 * (deleting, rotating a secret). The dialog is a native <dialog>: focus is
 * trapped in it and Escape closes it.
 */
export function ConfirmButton(props: {
  label: string
  title: string
  confirmLabel: string
  danger?: boolean
  busy?: boolean
  onConfirm: () => void
  children: ComponentChildren
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  return (
    <>
      <button
        type="button"
        class={`btn ${props.danger ? 'btn-danger' : ''}`}
        disabled={props.busy}
        onClick={() => dialog.current?.showModal()}
      >
        {props.label}
      </button>
      <dialog ref={dialog} aria-label={props.title}>
        <div class="dialog-body">
          <h2>{props.title}</h2>
          {props.children}
          <div class="actions">
            <button type="button" class="btn" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button
              type="button"
              class={`btn ${props.danger ? 'btn-danger' : 'btn-primary'}`}
              onClick={() => {
                dialog.current?.close()
                props.onConfirm()
              }}
            >
              {props.confirmLabel}
            </button>
          </div>
        </div>
      </dialog>
    </>
  )
}

/** One figure of a metrics row; `money` gives it the accent. */
export function Metric(props: { label: string; value: string; money?: boolean; testid?: string }) {
  return (
    <div class={props.money ? 'metric metric-money' : 'metric'} data-testid={props.testid}>
      <div class="label">{props.label}</div>
      <div class="value">{props.value}</div>
    </div>
  )
}
