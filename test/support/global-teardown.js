module.exports = async () => {
  for (const container of globalThis.__TEST_CONTAINERS__ ?? []) await container.stop();
};
