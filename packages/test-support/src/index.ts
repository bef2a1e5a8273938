export * from './solidity.js';
