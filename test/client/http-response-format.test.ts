import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { ApiError, AuthenticationError, MagniFinanceClient, ResponseFormatError } from '../../client';

/**
 * Answers that are not the service's envelope (a proxy error page, a truncated body, a changed
 * shape) over real HTTP from a tiny server that replays fixed answers: the client must name them,
 * never crash on them or mistake them for success.
 */
const answers: Record<string, { status: number; type: string; body: string }> = {
  '/html-200/document': { status: 200, type: 'text/html', body: '<html>maintenance</html>' },
  '/html-502/document': { status: 502, type: 'text/html', body: '<html>Bad gateway</html>' },
  '/bare-401/document': { status: 401, type: 'text/plain', body: 'Unauthorized' },
  '/no-type/document': { status: 200, type: 'application/json', body: '{"RequestId":"r","Object":{}}' },
  '/wrong-object/document': {
    status: 200,
    type: 'application/json',
    body: '{"RequestId":"r","Type":0,"Object":{"DocumentNumber":42,"TotalAmount":"abc"},"IsSuccess":true,"IsError":false}',
  },
  '/contradiction/document': {
    status: 200,
    type: 'application/json',
    body: '{"RequestId":"r","Type":0,"Object":null,"IsSuccess":false,"IsError":true}',
  },
  '/extra-fields/document': {
    status: 200,
    type: 'application/json',
    body: '{"RequestId":"r","Type":0,"IsSuccess":true,"IsError":false,"NewField":1,"Object":{"DocumentNumber":"FT A/1","TotalAmount":"1.234,56","Future":true,"Details":{"Document":{"DocumentStatusId":"C","Id":5}}}}',
  },
};

let server: Server;
let origin = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const answer = answers[new URL(req.url ?? '/', 'http://x').pathname];
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const clientAt = (prefix: string) => new MagniFinanceClient({ email: 'a@b.pt', token: 't', baseUrl: `${origin}${prefix}`, retry: false });

describe('answers that are not the envelope', () => {
  it.each([
    ['HTML with 200', '/html-200', ResponseFormatError, 200],
    ['HTML with 502', '/html-502', ApiError, 502],
    ['bare 401', '/bare-401', AuthenticationError, 401],
    ['envelope without Type', '/no-type', ResponseFormatError, 200],
    ['Object of the wrong shape', '/wrong-object', ResponseFormatError, 200],
    ['IsSuccess contradicting Type', '/contradiction', ResponseFormatError, 200],
  ])('%s', async (_name, prefix, errorClass, status) => {
    const error = await clientAt(prefix).getDocument(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toMatchObject({ status, rawBody: answers[`${prefix}/document`].body });
  });

  it('extra fields are tolerated and kept in raw', async () => {
    const read = await clientAt('/extra-fields').getDocument(1);
    expect(read.documentNumber).toBe('FT A/1');
    expect(read.totalAmount).toEqual({ units: 123456n, scale: 2 });
    expect(read.raw).toMatchObject({ Future: true });
  });
});
