import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, type TestApp } from '../support/test-app';

describe('server GET /docs', () => {
  let testApp: TestApp;

  before(async () => {
    testApp = await buildTestApp();
  });
  after(() => testApp.close());

  it('redirects to the folder form, so the relative links work behind a prefix too', async () => {
    const response = await request(testApp.app).get('/docs').expect(301);
    expect(response.headers.location).to.equal('docs/');
  });

  it('serves a page that loads only same-origin scripts and styles, no inline script', async () => {
    const response = await request(testApp.app).get('/docs/').expect(200).expect('Content-Type', /text\/html/);
    const sources = [...response.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(sources).to.deep.equal(['assets/swagger-ui.css', 'assets/favicon-32x32.png', 'assets/swagger-ui-bundle.js', 'docs.js']);
    expect(response.text).to.not.match(/<script>[^<]/);
    expect(response.headers['content-security-policy']).to.include("script-src 'self'");
  });

  it('serves every asset the page names, from the swagger-ui-dist package', async () => {
    const page = await request(testApp.app).get('/docs/').expect(200);
    for (const [, source] of page.text.matchAll(/(?:src|href)="([^"]+)"/g)) {
      const asset = await request(testApp.app).get(`/docs/${source}`).expect(200);
      expect(Number(asset.headers['content-length'] ?? asset.text?.length ?? 0), source).to.be.greaterThan(0);
    }
    const bundle = await request(testApp.app).get('/docs/assets/swagger-ui-bundle.js').expect(200).expect('Content-Type', /javascript/);
    expect(bundle.text).to.include('SwaggerUIBundle');
  });

  it('points Swagger UI at the gateway document, without the outside validator', async () => {
    const script = (await request(testApp.app).get('/docs/docs.js').expect(200).expect('Content-Type', /javascript/)).text;
    expect(script).to.include("new URL('../openapi.json', window.location.href)");
    expect(script).to.include('validatorUrl: null');
    expect(script).to.not.match(/https?:\/\//);
  });

  it('keeps the rest of the package private', async () => {
    await request(testApp.app).get('/docs/assets/index.html').expect(404);
    await request(testApp.app).get('/docs/assets/swagger-ui-bundle.js.map').expect(404);
    await request(testApp.app).get('/docs/assets/..%2Fpackage.json').expect(404);
  });
});
