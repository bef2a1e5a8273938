import preset from '@ctss/config/jest-preset';

export default { ...preset };
