/*
 * rosterrig launcher for Iceberg 1.10.1's REST catalog test fixture
 * (org.apache.iceberg:iceberg-open-api:1.10.1, Main-Class RESTCatalogServer).
 *
 * Why it exists: RESTCatalogServer.start() builds `new Server(port)`, which binds
 * Jetty to every interface; the stack binds everything to 127.0.0.1. This class
 * does what start() does (same backend catalog from initializeBackendCatalog(),
 * same RESTServerCatalogAdapter, servlet and gzip handler) but with one connector
 * on a chosen host. It lives in the fixture's package because the adapter and
 * CatalogContext are package-private; it is compiled against the jar and loaded by
 * the same class loader (the jar is not sealed).
 *
 * One addition: catalog properties named client-default.<key> (from env
 * CATALOG_CLIENT__DEFAULT_<KEY>, e.g. CATALOG_CLIENT__DEFAULT_S3_ENDPOINT) are
 * returned as `defaults` by GET /v1/config, so REST clients that honour them
 * (Iceberg's RESTCatalog in Flink) need no S3 settings of their own. The fixture's
 * own /v1/config returns only endpoints.
 */
package org.apache.iceberg.rest;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.util.PropertyUtil;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.gzip.GzipHandler;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class RosterrigCatalogServer {
  private static final Logger LOG = LoggerFactory.getLogger(RosterrigCatalogServer.class);
  private static final String CLIENT_DEFAULT_PREFIX = "client-default.";

  /** The fixture's adapter, plus client defaults in the /v1/config response. */
  static class Adapter extends RESTServerCatalogAdapter {
    private final Map<String, String> clientDefaults;

    Adapter(RESTCatalogServer.CatalogContext context, Map<String, String> clientDefaults) {
      super(context);
      this.clientDefaults = clientDefaults;
    }

    @Override
    public <T extends RESTResponse> T handleRequest(
        Route route, Map<String, String> vars, Object body, Class<T> responseType) {
      T response = super.handleRequest(route, vars, body, responseType);
      if (route == Route.CONFIG && response instanceof ConfigResponse && !clientDefaults.isEmpty()) {
        ConfigResponse config = (ConfigResponse) response;
        Map<String, String> defaults = new java.util.LinkedHashMap<>(clientDefaults); // not TreeMap: the builder probes containsKey(null)
        defaults.putAll(config.defaults());
        @SuppressWarnings("unchecked")
        T merged = (T) ConfigResponse.builder()
            .withDefaults(defaults)
            .withOverrides(config.overrides())
            .withEndpoints(config.endpoints())
            .build();
        return merged;
      }
      return response;
    }
  }

  public static void main(String[] args) throws Exception {
    String host = System.getProperty("rosterrig.bind-host", "127.0.0.1");
    LOG.info("rosterrig catalog: {}", IcebergBuild.fullVersion());

    Method init = RESTCatalogServer.class.getDeclaredMethod("initializeBackendCatalog");
    init.setAccessible(true);
    RESTCatalogServer.CatalogContext context =
        (RESTCatalogServer.CatalogContext) init.invoke(new RESTCatalogServer());

    Map<String, String> clientDefaults = new TreeMap<>();
    context.configuration().forEach((k, v) -> {
      if (k.startsWith(CLIENT_DEFAULT_PREFIX)) {
        clientDefaults.put(k.substring(CLIENT_DEFAULT_PREFIX.length()), v);
      }
    });
    LOG.info("rosterrig catalog: /v1/config defaults for clients: {}", clientDefaults.keySet());

    RESTCatalogServlet servlet = new RESTCatalogServlet(new Adapter(context, clientDefaults));
    ServletContextHandler handler = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    handler.addServlet(new ServletHolder(servlet), "/*");
    handler.insertHandler(new GzipHandler());

    int port = PropertyUtil.propertyAsInt(context.configuration(), RESTCatalogServer.REST_PORT, 8181);
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(host);
    connector.setPort(port);
    server.addConnector(connector);
    server.setHandler(handler);
    server.start();
    LOG.info("rosterrig catalog: listening on http://{}:{}/", host, port);
    server.join();
  }
}
