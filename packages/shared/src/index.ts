export * from './constants.js';
export * from './user.js';
export * from './models.js';
export * from './kb.js';
export * from './chat.js';
export * from './chunk.js';
export * from './metadata-filter.js';
export * from './contract/index.js';
