export * from './solidity.js';
export * from './raw-http.js';
export * from './keep-alive-load.js';
export * from './redis-server.js';
export * from './free-port.js';
