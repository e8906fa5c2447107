# vcsim built the same way as on a developer's machine: from Debian's govmomi packages, offline.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends golang-go golang-github-vmware-govmomi-dev openssl ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /vcsim
COPY scripts/vcsim scripts/vcsim
RUN bash scripts/vcsim/build.sh /vcsim/.cache/vcsim/bin/vcsim && rm -rf /vcsim/.cache/vcsim/gocache
EXPOSE 8989
ENTRYPOINT ["bash", "scripts/vcsim/start.sh", "0.0.0.0:8989"]
