/**
 * A concurrent load of API-like reads for measuring the event loop while something else runs on
 * it: a loop of read-model finds as a rule list and a rule fetch do them (the page of 20 newest
 * rules of the tenant, then one rule by id), each yielding to the event loop between reads as a
 * request would between its socket reads. Reports the reads done, their latency p99, and the
 * event loop's delay p99 (perf_hooks' monitorEventLoopDelay, 1 ms resolution) over the window,
 * and the reads' own time summed.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ReadModelReader } from '../../src/readstore/port.js';
import { percentile } from './machine.js';

export interface ReadLoadFigures {
  reads: number;
  read_p99_ms: number;
  /**
   * The reads' own time, summed (each from its find's start to its get's answer): about the main
   * thread's CPU the load took, to tell apart from what it measures.
   */
  busy_ms: number;
  event_loop_delay_p99_ms: number;
  event_loop_delay_max_ms: number;
}

export function apiReadLoad(reader: ReadModelReader, collection: string, tenantId: string, ids: readonly string[]) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let running = false;
  let loop: Promise<void> | undefined;
  let latencies: number[] = [];

  async function reads() {
    let n = 0;
    while (running) {
      const started = performance.now();
      await reader.find(
        collection,
        { tenantId, deleted: false },
        {
          sort: [
            ['createdAt', 'desc'],
            ['id', 'desc'],
          ],
          limit: 20,
        },
      );
      await reader.get(collection, ids[n++ % ids.length]!);
      latencies.push(performance.now() - started);
      await yieldToLoop();
    }
  }

  return {
    start() {
      latencies = [];
      histogram.reset();
      histogram.enable();
      running = true;
      loop = reads();
    },
    async stop(): Promise<ReadLoadFigures> {
      running = false;
      await loop;
      histogram.disable();
      latencies.sort((a, b) => a - b);
      return {
        reads: latencies.length,
        read_p99_ms: +percentile(latencies, 99).toFixed(2),
        busy_ms: Math.round(latencies.reduce((sum, ms) => sum + ms, 0)),
        event_loop_delay_p99_ms: +(histogram.percentile(99) / 1e6).toFixed(2),
        event_loop_delay_max_ms: +(histogram.max / 1e6).toFixed(2),
      };
    },
  };
}
