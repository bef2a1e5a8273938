import config from '@ctss/config/eslint';

export default config;
