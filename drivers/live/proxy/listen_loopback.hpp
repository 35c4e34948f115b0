// Binds an acceptor to 127.0.0.1 (every port of the rig listens there only) and
// returns the port it got: port 0 asks the kernel for a free one.
#ifndef ROSTERRIG_LIVE_PROXY_LISTEN_LOOPBACK_HPP
#define ROSTERRIG_LIVE_PROXY_LISTEN_LOOPBACK_HPP

#include <boost/asio.hpp>

namespace rosterrig::live::proxy {

inline unsigned short listen_on_loopback(boost::asio::ip::tcp::acceptor& acceptor, unsigned short port) {
    const boost::asio::ip::tcp::endpoint at(boost::asio::ip::make_address("127.0.0.1"), port);
    acceptor.open(at.protocol());
    acceptor.set_option(boost::asio::socket_base::reuse_address(true));
    acceptor.bind(at);
    acceptor.listen();
    return acceptor.local_endpoint().port();
}

}  // namespace rosterrig::live::proxy

#endif
