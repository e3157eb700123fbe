/**
 * The attempts a drain has in flight (drain.ts, batch-drain.ts): `sending` until answered, so the
 * drain wakes when a round's next event may go; `recording` until recorded, the in-flight window.
 */
export interface InFlight {
  sending: Set<Promise<unknown>>;
  recording: Set<Promise<unknown>>;
}

/**
 * Starts an attempt and tracks it. `answered` is told the answer first (before it is recorded);
 * `recorded` once it is written or broke. An attempt that broke before its answer wakes the drain too.
 */
export function trackAttempt(
  inFlight: InFlight,
  start: (onAnswer: (ok: boolean) => void) => Promise<boolean>,
  answered: (ok: boolean) => void,
  recorded: () => void,
): void {
  let told: () => void = () => {};
  const answer = new Promise<void>((resolve) => {
    told = resolve;
  });
  const written = start((ok) => {
    answered(ok);
    told();
  }).finally(recorded);
  const work = Promise.race([answer, written]);
  inFlight.sending.add(work);
  inFlight.recording.add(written);
  void work.finally(() => inFlight.sending.delete(work)).catch(() => {});
  void written.finally(() => inFlight.recording.delete(written)).catch(() => {});
}
