import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('fills the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      basePath: '',
      publicUrl: 'http://localhost:3000',
      paymentProvider: 'sandbox',
      rateLimits: true,
      secureCookies: false,
      google: undefined,
      s3: undefined,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('normalises the base path and derives the public URL from it', () => {
    expect(loadConfig({ BASE_PATH: '/shop/', PORT: '8080' })).toMatchObject({
      basePath: '/shop',
      publicUrl: 'http://localhost:8080/shop',
    });
    expect(loadConfig({ PUBLIC_URL: 'https://kits.example.com/' })).toMatchObject({
      publicUrl: 'https://kits.example.com',
      secureCookies: true,
    });
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', GA_MEASUREMENT_ID: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      gaMeasurementId: undefined,
    });
  });

  it('takes the shop time zone as an IANA name, UTC by default, and refuses an unknown one', () => {
    expect(loadConfig({}).shopTimeZone).toBe('UTC');
    expect(loadConfig({ SHOP_TIME_ZONE: '' }).shopTimeZone).toBe('UTC');
    expect(loadConfig({ SHOP_TIME_ZONE: 'Europe/Berlin' }).shopTimeZone).toBe('Europe/Berlin');
    for (const zone of ['Mars/Olympus', 'GMT+25', 'berlin'])
      expect(() => loadConfig({ SHOP_TIME_ZONE: zone }), zone).toThrow(
        'SHOP_TIME_ZONE: must be an IANA time zone such as UTC, Europe/Berlin or America/New_York',
      );
  });

  it('names the seller of the shop’s own invoices: the shop by default, the address split into lines', () => {
    expect(loadConfig({}).seller).toEqual({ name: 'Kitshop', address: [], taxId: null });
    expect(
      loadConfig({
        SELLER_NAME: 'Starter Kits Ltd',
        SELLER_ADDRESS: '1 Market Street; Dublin D01 X2Y3\\nIreland',
        SELLER_TAX_ID: 'IE1234567WA',
      }).seller,
    ).toEqual({
      name: 'Starter Kits Ltd',
      address: ['1 Market Street', 'Dublin D01 X2Y3', 'Ireland'],
      taxId: 'IE1234567WA',
    });
    expect(() => loadConfig({ SELLER_TAX_ID: 'x'.repeat(41) })).toThrow(/SELLER_TAX_ID: at most 40 characters/);
  });

  it('lists every problem at once', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ PORT: 'abc', PAYMENT_PROVIDER: 'cash', GA_MEASUREMENT_ID: 'UA-1' });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems).toHaveLength(3);
    expect(error!.message).toContain('PORT');
    expect(error!.message).toContain('PAYMENT_PROVIDER');
    expect(error!.message).toContain('GA_MEASUREMENT_ID');
  });

  it('is strict in production: secret, https URL and an explicit payment provider', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://shop.example.com' })).toThrow(
      /SESSION_SECRET[\s\S]*PUBLIC_URL: must be https[\s\S]*PAYMENT_PROVIDER/,
    );
    expect(
      loadConfig({
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://shop.example.com',
        SESSION_SECRET: 'x'.repeat(32),
        PAYMENT_PROVIDER: 'sandbox',
      }).production,
    ).toBe(true);
  });

  it('needs the Paddle secrets for paddle and pairs of Google and S3 settings', () => {
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'paddle' })).toThrow(/PADDLE_CLIENT_TOKEN[\s\S]*PADDLE_WEBHOOK_SECRET/);
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'id' })).toThrow(/GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/);
    expect(() => loadConfig({ S3_BUCKET: 'b' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ S3_ENDPOINT: 's3.example.com' })).toThrow(/S3_ENDPOINT/);
  });

  it('turns GitHub delivery on only with the token and the OAuth app, all three or none', () => {
    expect(loadConfig({}).github).toBeUndefined();
    expect(() => loadConfig({ GITHUB_TOKEN: 't' })).toThrow(/GITHUB_TOKEN, GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET/);
    expect(() => loadConfig({ GITHUB_API_URL: 'not a url' })).toThrow(/GITHUB_API_URL/);
    const all = { GITHUB_TOKEN: 't', GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 's' };
    expect(loadConfig({ ...all, GITHUB_API_URL: 'http://127.0.0.1:9/api/' }).github).toEqual({
      token: 't',
      clientId: 'id',
      clientSecret: 's',
      apiUrl: 'http://127.0.0.1:9/api',
      webUrl: 'https://github.com',
    });
    expect(() =>
      loadConfig({
        ...all,
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://shop.example.com',
        SESSION_SECRET: 'x'.repeat(32),
        PAYMENT_PROVIDER: 'sandbox',
        GITHUB_WEB_URL: 'http://github.example.com',
      }),
    ).toThrow(/GITHUB_WEB_URL: must be https/);
  });
});
