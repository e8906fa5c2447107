/**
 * What a Node process allocates over a stretch of time, garbage included, by where: V8's sampling
 * heap profiler through the process's inspector (`--inspect=127.0.0.1:<port>`), with the objects
 * collected since kept in the profile. The evidence for a transient peak (memory allocated and
 * dropped again) that a heap snapshot, which holds only what is live, cannot show.
 */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  callFrame: CallFrame;
  selfSize: number;
  children: ProfileNode[];
}

export class AllocationSampler {
  private next = 1;
  private readonly answers = new Map<number, (result: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
      if (message.id !== undefined) this.answers.get(message.id)?.(message.result);
    });
  }

  static async connect(port: number): Promise<AllocationSampler> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
      webSocketDebuggerUrl: string;
    }[];
    const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve, { once: true });
      socket.addEventListener('error', reject, { once: true });
    });
    return new AllocationSampler(socket);
  }

  start(): Promise<unknown> {
    return this.send('HeapProfiler.startSampling', {
      samplingInterval: 64 * 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }

  /** Stops sampling: the megabytes allocated since start, by the nearest frame of our own code. */
  async stop(top = 15): Promise<{ total_mb: number; by_our_frame: Record<string, number> }> {
    const { profile } = (await this.send('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
    this.socket.close();
    const bySite = new Map<string, number>();
    let total = 0;
    const walk = (node: ProfileNode, ours: string) => {
      const { url, functionName, lineNumber } = node.callFrame;
      const here =
        /\/dist\/|\/libs\/|\/apps\//.test(url) && !url.includes('node_modules')
          ? `${functionName || '(anonymous)'} ${url.replace(/^.*\/(apps|libs)\//, '$1/')}:${lineNumber + 1}`
          : ours;
      total += node.selfSize;
      bySite.set(here, (bySite.get(here) ?? 0) + node.selfSize);
      for (const child of node.children) walk(child, here);
    };
    walk(profile.head, '(not under our code)');
    const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));
    return {
      total_mb: mb(total),
      by_our_frame: Object.fromEntries(
        [...bySite]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([site, bytes]) => [site, mb(bytes)]),
      ),
    };
  }

  private send(method: string, params: object = {}): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.answers.set(id, resolve);
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }
}
