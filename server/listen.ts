import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts listening; resolves once the port is bound, rejects with the bind error (EADDRINUSE, EACCES, ...). */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** One line for the operator: what failed, where, and what to do. */
export function describeListenError(error: unknown, host: string, port: number): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const where = `${host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is already in use (EADDRINUSE): stop the other process or choose another port (PORT or server.port)`;
    case 'EACCES':
      return `no permission to listen on ${where} (EACCES): use a port above 1023 or grant the permission`;
    case 'EADDRNOTAVAIL':
      return `address ${host} is not one of this machine's (EADDRNOTAVAIL): check server.host`;
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return `could not listen on ${where}: ${message}`;
    }
  }
}
