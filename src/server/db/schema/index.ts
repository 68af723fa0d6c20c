export * from './accounts.ts';
export * from './catalog.ts';
export * from './github.ts';
export * from './library.ts';
export * from './mail.ts';
export * from './messages.ts';
export * from './orders.ts';
export * from './owner.ts';
