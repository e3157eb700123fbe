/**
 * Vitest globalSetup of the server project: one PostgreSQL cluster for the whole run (started
 * here unless TEST_DATABASE_URL / DATABASE_URL names a server), and one migrated template
 * database that each test's fresh database is copied from (postgres-database.ts).
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { startCluster } from './postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL of the cluster's maintenance database, as a role that may create databases. */
    postgresUrl: string;
    /** The migrated, empty database every test database is a copy of. */
    postgresTemplate: string;
  }
}

export const withDatabase = (url: string, database: string): string => {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.href;
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startCluster();
  const template = `raspa_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: cluster.url });
  try {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const store = openPostgresStore(withDatabase(cluster.url, template), { maxConnections: 1 });
    await store.ready;
    await store.close();
  } catch (error) {
    await admin.end().catch(() => {});
    await cluster.stop();
    throw error;
  }
  project.provide('postgresUrl', cluster.url);
  project.provide('postgresTemplate', template);
  return async () => {
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await admin.end();
    } finally {
      await cluster.stop();
    }
  };
}
