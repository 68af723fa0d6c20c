import { startTestS3 } from '/work/main/tests/setup/s3.ts';

const s3 = await startTestS3('kitshop');
console.log(JSON.stringify(s3.env));
setInterval(() => {}, 1000);
