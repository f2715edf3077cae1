// GraphiQL over the service's own copies of React and GraphiQL (served by api/graphql/graphiql.ts). Its
// settings come in a JSON data block of the page: a CSP of 'self' runs no inline script.
(function () {
  var settings = JSON.parse(document.getElementById('graphiql-settings').textContent);
  var fetcher = GraphiQL.createFetcher({ url: settings.endpoint });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: settings.query,
      headers: settings.headers,
      defaultHeaders: settings.headers,
      isHeadersEditorEnabled: true,
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'headers',
    }),
  );
})();
