/** Runs async sections one at a time, in call order (a promise-chain mutex). */
export function serialLock() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(section: () => Promise<T>): Promise<T> => {
    const run = tail.then(section, section);
    tail = run.catch(() => undefined);
    return run;
  };
}
