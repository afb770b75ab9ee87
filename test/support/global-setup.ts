import 'reflect-metadata';
import nock from 'nock';

// No test touches the network: only loopback (supertest, local stand-ins) is allowed.
nock.disableNetConnect();
nock.enableNetConnect((host) => host.startsWith('127.0.0.1') || host.startsWith('localhost') || host.startsWith('[::1]'));
