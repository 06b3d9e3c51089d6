/**
 * Preloaded (`--import`) into platform processes that tests spawn with a stdin pipe: when the pipe
 * closes, the test process that held its other end is gone (even killed with -9, when no exit
 * handler of its ran), so this process stops itself the way an operator would, with SIGTERM.
 */
process.stdin.on('end', () => process.kill(process.pid, 'SIGTERM'));
process.stdin.resume();
// The pipe must not keep a platform alive that is otherwise done (a clean exit after SIGTERM).
process.stdin.unref?.();
