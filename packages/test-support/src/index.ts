export * from './solidity.js';
export * from './raw-http.js';
