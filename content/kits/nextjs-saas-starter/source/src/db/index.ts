import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is not set');

// Serverless platforms open one instance per request burst: keep each pool tiny there.
const client = postgres(url, { max: process.env.VERCEL ? 1 : 10 });

export const db = drizzle(client, { schema });
export { schema };
